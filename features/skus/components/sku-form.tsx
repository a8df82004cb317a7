"use client";

import { useTranslations } from "next-intl";
import { startTransition, useActionState, useEffect, useMemo, useRef, useState } from "react";
import { FormProvider, useForm, useFormState } from "react-hook-form";
import type { Resolver } from "react-hook-form";
import { idle } from "@/lib/action-state";
import { createSkuAction } from "@/features/skus/actions";
import type { SkuCreateInput } from "@marketplace/api/schemas/sku";
import type { Messages } from "@/messages";
import { listErrors, toFieldName, toHookFormErrors } from "@/features/skus/form-errors";
import { mapImportErrors, parseFieldPath } from "@/features/skus/import-status";
import { validateSku } from "@/features/skus/sku-form";
import type { SkuValidationWords } from "@/features/skus/sku-form";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { AttributesSections } from "./form/attributes-section";
import { DimensionsSection } from "./form/dimensions-section";
import { fieldId } from "./form/fields";
import { IdentifiersSection } from "./form/identifiers-section";
import { ImportOutcome } from "./form/import-outcome";
import { DescriptionsSection, TitlesSection } from "./form/language-sections";
import { ExtrasSection, MediaSection, TagsSection } from "./form/list-sections";
import { ProductSection } from "./form/product-section";
import { useShopId } from "@/components/shop-link";

// The New SKU form on react-hook-form (decision 0005). What the seller types is never reset by a
// submission, so no outcome loses it; the platform's errors stay on their field until it is edited.

/** Validates with the platform's own schema (the sandbox and the server action use the same one), worded by `t`. */
const skuResolver =
  (t: SkuValidationWords): Resolver<SkuFormState> =>
  (values) => {
    const check = validateSku(values, t);
    return check.ok ? { values, errors: {} } : { values: {}, errors: toHookFormErrors(check.errors, values) };
  };

type SegmentName = keyof Messages["skus"]["form"]["segments"];

/** The path segments the summary names in words (the catalogue's "skus.form.segments"). */
const SEGMENT_NAMES: ReadonlySet<string> = new Set<SegmentName>([
  "code",
  "titles",
  "variation_key",
  "condition",
  "brand",
  "tags",
  "available",
  "origin",
  "datasheet",
  "reference",
  "dimensions",
  "descriptions",
  "verbose_value",
  "simplified_value",
  "identifiers",
  "attributes",
  "variant",
  "optional",
  "display",
  "medias",
  "extras",
  "body",
  "authorization",
  "language",
  "value",
  "name",
  "type",
  "unit",
  "height",
  "width",
  "length",
  "weight",
]);

const isSegmentName = (segment: string): segment is SegmentName => SEGMENT_NAMES.has(segment);

/** A readable name for a field path, for the error summary: `dimensions[0].height.value` → "Dimension 1 height value". */
function useDescribeField(): (path: string) => string {
  const t = useTranslations("skus.form.segments");
  return (path) =>
    parseFieldPath(path)
      .map((segment) => {
        if (typeof segment === "number") return String(segment + 1);
        // A path the form has no field for (the platform's `query.x`) is shown as it came.
        return isSegmentName(segment) ? t(segment) : segment.replace(/_/g, " ");
      })
      .join(" ");
}

function ErrorSummary({ hidden, focusRef }: { hidden: boolean; focusRef: React.RefObject<HTMLDivElement | null> }) {
  const t = useTranslations("skus.form");
  const describeField = useDescribeField();
  const { errors, submitCount } = useFormState<SkuFormState>();
  const shown = listErrors(errors);
  if (hidden || submitCount === 0 || shown.length === 0) return null;
  return (
    <div
      id="sku-error-summary"
      ref={focusRef}
      tabIndex={-1}
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
    >
      <h2 className="font-semibold">{t("summary", { count: shown.length })}</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {shown.map(({ path, message }) => (
          <li key={path}>
            <a href={`#${fieldId(path)}`} className="underline">
              {describeField(path)}
            </a>
            : {message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SkuForm({ initial }: { initial: SkuFormState }) {
  const t = useTranslations("skus.form");
  const shopId = useShopId() ?? "";
  const validationWords = useTranslations("skus.validation");
  const resolver = useMemo(() => skuResolver(validationWords), [validationWords]);
  const form = useForm<SkuFormState>({
    defaultValues: initial,
    resolver,
    // Fields validate themselves as they change (form/fields.tsx); the whole form on submit.
    mode: "onSubmit",
    reValidateMode: "onSubmit",
    shouldFocusError: false,
  });
  const [result, dispatch, pending] = useActionState<Awaited<ReturnType<typeof createSkuAction>>, SkuCreateInput>(
    createSkuAction.bind(null, shopId),
    idle,
  );
  /** The form as it was sent: the answer's body paths name its rows. */
  const [submittedForm, setSubmittedForm] = useState<SkuFormState | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const { setError } = form;

  // The platform's (or the server's) errors name body paths; they are placed with the form as it
  // was when sent. From then on react-hook-form moves them with their rows.
  useEffect(() => {
    if (result.status !== "error" || !submittedForm) return;
    const errors = Object.entries(result.fieldErrors).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));
    for (const [path, messages] of Object.entries(mapImportErrors(errors, submittedForm))) {
      setError(toFieldName(path, submittedForm) as Parameters<typeof setError>[0], { type: "server", message: messages.join("; ") });
    }
  }, [result, submittedForm, setError]);

  function send(values: SkuFormState) {
    const check = validateSku(values, validationWords);
    if (!check.ok) return;
    setSubmittedForm(structuredClone(values));
    startTransition(() => dispatch(check.sku));
  }

  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit(send, () => requestAnimationFrame(() => summaryRef.current?.focus()))(event)}
        className="space-y-6"
      >
        <ErrorSummary hidden={pending} focusRef={summaryRef} />
        <ProductSection />
        <TitlesSection />
        <DescriptionsSection />
        <DimensionsSection />
        <IdentifiersSection />
        <AttributesSections />
        <TagsSection />
        <MediaSection />
        <ExtrasSection />

        <div className="flex flex-wrap items-center gap-4">
          <button
            type="submit"
            disabled={pending}
            className="rounded-md bg-brand-700 px-5 py-2.5 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
          >
            {pending ? t("sending") : t("submit")}
          </button>
          <span className="text-sm text-zinc-600">{t("immutable")}</span>
        </div>

        <ImportOutcome result={result} pending={pending} submittedForm={submittedForm} />
      </form>
    </FormProvider>
  );
}
