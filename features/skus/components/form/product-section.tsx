"use client";

import { useTranslations } from "next-intl";
import { useFormContext } from "react-hook-form";
import { SKU_LIMITS, skuConditionSchema, skuOriginSchema } from "@marketplace/api/schemas/sku";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { fieldId, Group, SelectField, TextField } from "./fields";

/** What the SKU is: code, variation, brand, condition, origin, availability, datasheet. */
export function ProductSection() {
  const { register } = useFormContext<SkuFormState>();
  const t = useTranslations("skus.form.product");
  return (
    <Group name="identity" legend={t("legend")}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="code" label={t("code")} required max={SKU_LIMITS.code} mono />
        <TextField name="variation_key" label={t("variationKey")} hint={t("variationKeyHint")} max={SKU_LIMITS.variationKey} mono />
        <TextField name="brand" label={t("brand")} required max={SKU_LIMITS.brand} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <SelectField
            name="condition"
            label={t("condition")}
            required
            options={skuConditionSchema.options}
            optionLabel={(option) => t(`conditions.${option}`)}
            emptyOption={t("choose")}
          />
          <SelectField
            name="origin"
            label={t("origin")}
            required
            options={skuOriginSchema.options}
            optionLabel={(option) => t(`origins.${option}`)}
            emptyOption={t("choose")}
          />
        </div>
        {/* The label wraps the box: on a phone the whole 44 px line is the touch target. */}
        <label htmlFor={fieldId("available")} className="flex min-h-11 items-center gap-2 text-sm font-medium text-zinc-800">
          <input
            id={fieldId("available")}
            type="checkbox"
            className="size-6 rounded border-zinc-300 md:size-4"
            {...register("available")}
          />
          {t("available")}
        </label>
        <TextField name="datasheet.reference" label={t("datasheet")} type="url" hint={t("datasheetHint")} />
      </div>
    </Group>
  );
}
