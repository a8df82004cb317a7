"use client";

import { useTranslations } from "next-intl";
import { ShopLink } from "@/components/shop-link";
import type { ReactNode } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import type { CreateSkuState } from "@/features/skus/actions";
import { describeProblem } from "@/lib/platform-problem";
import { explainImportStatus, importFieldToFormPath, importOutcomeText } from "@/features/skus/import-status";
import type { ImportStatusText } from "@/features/skus/import-status";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { fieldId } from "./fields";

// What the seller reads after sending a SKU: the platform's import response explained (spec:
// Errors → SKU import status codes), with its errors linking to the fields that show them. The
// platform's own words (statusMessage, errors[].message) are shown as it sent them.

const TONE_CLASSES: Record<ImportStatusText["tone"], string> = {
  success: "border-brand-100 bg-brand-50 text-brand-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  error: "border-red-200 bg-red-50 text-red-900",
};

function Outcome({ text, children }: { text: ImportStatusText; children?: ReactNode }) {
  return (
    <section
      data-testid="sku-outcome"
      role={text.tone === "success" || text.tone === "info" ? "status" : "alert"}
      className={`space-y-2 rounded-lg border p-5 text-sm ${TONE_CLASSES[text.tone]}`}
    >
      <h2 className="text-base font-semibold">{text.title}</h2>
      <p>{text.meaning}</p>
      <p className="font-medium">{text.action}</p>
      {children}
    </section>
  );
}

/** The platform's own words, for support and for sellers who know the spec. */
function StatusLine({ statusCode, statusMessage, token }: { statusCode: number; statusMessage: string; token?: string }) {
  const t = useTranslations("skus.outcome");
  return (
    <p className="text-xs opacity-80" data-technical>
      statusCode <code className="font-mono">{statusCode}</code> · “{statusMessage}”
      {token ? (
        <>
          {" "}
          · {t("importToken")} <code className="font-mono break-all">{token}</code>
        </>
      ) : null}
    </p>
  );
}

function ErrorList({ errors, form }: { errors: Record<string, string[]>; form: SkuFormState | null }) {
  const entries = Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));
  if (entries.length === 0) return null;
  return (
    <ul className="list-disc space-y-1 pl-5">
      {entries.map(({ field, message }, index) => (
        <li key={index}>
          <a href={`#${fieldId(form ? importFieldToFormPath(field, form) : field)}`} className="underline">
            <code className="font-mono">{field}</code>
          </a>
          : {message}
        </li>
      ))}
    </ul>
  );
}

export function ImportOutcome({
  result,
  pending,
  submittedForm,
}: {
  result: CreateSkuState;
  pending: boolean;
  submittedForm: SkuFormState | null;
}) {
  const t = useTranslations("skus.outcome");
  const problemWords = useTranslations("problems");
  if (pending) {
    return (
      <p role="status" className="text-sm text-zinc-600">
        {t("pending")}
      </p>
    );
  }
  if (result.status === "idle") return null;
  if (result.status === "success") {
    const sku = result.data;
    return (
      <Outcome text={explainImportStatus(0, t, { alreadyExisted: sku.alreadyExisted })}>
        <p>{t.rich("created", { code: sku.code, strong: (chunks) => <strong>{chunks}</strong> })}</p>
        <p className="flex flex-wrap gap-4">
          <ShopLink href={`/skus?search=${encodeURIComponent(sku.code)}`} className="font-medium underline">
            {t("seeInCatalogue")}
          </ShopLink>
          <ShopLink href={`/skus/${sku.id}`} className="font-medium underline">
            {t("open")}
          </ShopLink>
        </p>
        <StatusLine statusCode={0} statusMessage={sku.statusMessage} token={sku.token} />
        {/* For whoever talks to the marketplace's support; the seller names the SKU by its code (issue 40). */}
        <p className="text-xs text-zinc-600" data-technical>
          {t.rich("platformId", {
            id: sku.id,
            mono: (chunks) => (
              <code data-testid="sku-created-id" className="font-mono">
                {chunks}
              </code>
            ),
          })}
        </p>
      </Outcome>
    );
  }
  if (result.data) {
    // The platform's import response: statusCode -1 … -6.
    const { authorization: _authorization, ...fieldErrors } = result.fieldErrors;
    return (
      <Outcome text={explainImportStatus(result.data.statusCode, t)}>
        <ErrorList errors={fieldErrors} form={submittedForm} />
        <StatusLine statusCode={result.data.statusCode} statusMessage={result.data.statusMessage} token={result.data.token} />
      </Outcome>
    );
  }
  const { problem } = result;
  if (!problem) {
    return (
      <Outcome text={importOutcomeText("notSent", { tone: "error", retry: false }, t)}>
        <ErrorList errors={result.fieldErrors} form={submittedForm} />
      </Outcome>
    );
  }
  if (problem.kind !== "error") return <ProblemNotice problem={problem} feature="creatingSkus" />;
  // A failure without an import-response body: explained by its HTTP status where the sandbox's
  // table ties one to a statusCode (429 → -2, 503 → -5, 500 → -1).
  const code = problem.status === 429 ? -2 : problem.status === 503 ? -5 : problem.status !== null && problem.status >= 500 ? -1 : null;
  if (code !== null) {
    return (
      <Outcome text={explainImportStatus(code, t)}>
        <p className="text-xs opacity-80">{problem.message}</p>
      </Outcome>
    );
  }
  return (
    <Outcome
      text={{
        title: t("notTaken.title"),
        // A 4xx: the platform's own sentence about the request; no answer at all: "could not be reached".
        meaning: describeProblem(problem, problemWords, "createSkus"),
        action: t("notTaken.action"),
        tone: "error",
        retry: true,
      }}
    />
  );
}
