"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import type { CreateSkuState } from "@/lib/actions/skus";
import { explainImportStatus, importFieldToFormPath } from "@/lib/skus/import-status";
import type { ImportStatusText } from "@/lib/skus/import-status";
import type { SkuFormState } from "@/lib/skus/sku-form";
import { fieldId } from "./fields";

// What the seller reads after sending a SKU: the platform's import response explained (spec:
// Errors → SKU import status codes), with its errors linking to the fields that show them.

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
  return (
    <p className="text-xs opacity-80">
      statusCode <code className="font-mono">{statusCode}</code> · “{statusMessage}”
      {token ? (
        <>
          {" "}
          · import token <code className="font-mono break-all">{token}</code>
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

const NOT_SENT: ImportStatusText = {
  title: "The SKU was not sent",
  meaning: "The dashboard checks SKUs with the marketplace's own rules before sending, and this one breaks some of them.",
  action: "Correct the fields marked above and send the SKU again.",
  tone: "error",
  retry: false,
};

export function ImportOutcome({ result, pending, submittedForm }: { result: CreateSkuState; pending: boolean; submittedForm: SkuFormState | null }) {
  if (pending) {
    return (
      <p role="status" className="text-sm text-zinc-600">
        Sending the SKU to the marketplace…
      </p>
    );
  }
  if (result.status === "idle") return null;
  if (result.status === "success") {
    const sku = result.data;
    return (
      <Outcome text={explainImportStatus(0, { alreadyExisted: sku.alreadyExisted })}>
        <p>
          SKU <strong>{sku.code}</strong> has the id <code data-testid="sku-created-id" className="font-mono">{sku.id}</code>.
        </p>
        <p className="flex flex-wrap gap-4">
          <Link href={`/skus?search=${encodeURIComponent(sku.code)}`} className="font-medium underline">
            See it in the catalogue
          </Link>
          <Link href={`/skus/${sku.id}`} className="font-medium underline">
            Open the SKU
          </Link>
        </p>
        <StatusLine statusCode={0} statusMessage={sku.statusMessage} token={sku.token} />
      </Outcome>
    );
  }
  if (result.data) {
    // The platform's import response: statusCode -1 … -6.
    const { authorization: _authorization, ...fieldErrors } = result.fieldErrors;
    return (
      <Outcome text={explainImportStatus(result.data.statusCode)}>
        <ErrorList errors={fieldErrors} form={submittedForm} />
        <StatusLine statusCode={result.data.statusCode} statusMessage={result.data.statusMessage} token={result.data.token} />
      </Outcome>
    );
  }
  const { problem } = result;
  if (!problem) {
    return (
      <Outcome text={NOT_SENT}>
        <ErrorList errors={result.fieldErrors} form={submittedForm} />
      </Outcome>
    );
  }
  if (problem.kind !== "error") return <ProblemNotice problem={problem} feature="creating SKUs" />;
  // A failure without an import-response body: explained by its HTTP status where the sandbox's
  // table ties one to a statusCode (429 → -2, 503 → -5, 500 → -1).
  const code = problem.status === 429 ? -2 : problem.status === 503 ? -5 : problem.status !== null && problem.status >= 500 ? -1 : null;
  if (code !== null) {
    return (
      <Outcome text={explainImportStatus(code)}>
        <p className="text-xs opacity-80">{problem.message}</p>
      </Outcome>
    );
  }
  return (
    <Outcome
      text={{
        title: "The marketplace could not take the SKU",
        meaning: problem.message,
        action: "Try again in a moment; your entries are kept.",
        tone: "error",
        retry: true,
      }}
    />
  );
}
