"use client";

import { useFormContext } from "react-hook-form";
import { SKU_LIMITS, skuConditionSchema, skuOriginSchema } from "@/lib/marketplace/schemas/sku";
import type { SkuFormState } from "@/lib/skus/sku-form";
import { fieldId, Group, SelectField, TextField } from "./fields";

/** What the SKU is: code, variation, brand, condition, origin, availability, datasheet. */
export function ProductSection() {
  const { register } = useFormContext<SkuFormState>();
  return (
    <Group name="identity" legend="Product">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="code" label="Code" required max={SKU_LIMITS.code} mono />
        <TextField name="variation_key" label="Variation key" hint="Code of the parent SKU; empty when none" max={SKU_LIMITS.variationKey} mono />
        <TextField name="brand" label="Brand" required max={SKU_LIMITS.brand} />
        <div className="grid grid-cols-2 gap-4">
          <SelectField name="condition" label="Condition" required options={skuConditionSchema.options} emptyOption="Choose…" />
          <SelectField name="origin" label="Origin" required options={skuOriginSchema.options} emptyOption="Choose…" />
        </div>
        <div className="flex items-center gap-2">
          <input id={fieldId("available")} type="checkbox" className="size-4 rounded border-zinc-300" {...register("available")} />
          <label htmlFor={fieldId("available")} className="text-sm font-medium text-zinc-800">
            Available for sale
          </label>
        </div>
        <TextField name="datasheet.reference" label="Datasheet URL" type="url" hint="Link to the technical sheet (optional)" />
      </div>
    </Group>
  );
}
