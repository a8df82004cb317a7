"use client";

import { useTranslations } from "next-intl";
import { useFieldArray, useFormContext } from "react-hook-form";
import { dimensionNameSchema, lengthUnitSchema, SKU_LIMITS, weightUnitSchema } from "@marketplace/api/schemas/sku";
import { emptyDimension } from "@/features/skus/empty-rows";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { Group, Row, SelectField, sr, TextField, useText } from "./fields";
import { smallButton } from "@/features/skus/components/form/styles";

const MEASURES = [
  { key: "height", units: lengthUnitSchema.options },
  { key: "width", units: lengthUnitSchema.options },
  { key: "length", units: lengthUnitSchema.options },
  { key: "weight", units: weightUnitSchema.options },
] as const;

type DimensionName = (typeof dimensionNameSchema.options)[number];
const isDimensionName = (name: string): name is DimensionName => (dimensionNameSchema.options as readonly string[]).includes(name);

function DimensionRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const t = useTranslations("skus.form.dimensions");
  const name = useText(`dimensions.${index}.name`);
  const context = t("context", { position: index + 1, name: isDimensionName(name) ? t(`names.${name}`) : name || t("unnamed") });
  return (
    <Row removeLabel={t("remove")} onRemove={onRemove}>
      <SelectField
        className="sm:col-span-12 sm:max-w-48"
        name={`dimensions.${index}.name`}
        label={t.rich("of", { sr, position: index + 1 })}
        options={dimensionNameSchema.options}
        optionLabel={(option) => t(`names.${option}`)}
      />
      {MEASURES.map(({ key, units }) => {
        const measure = t(`measures.${key}`);
        return (
          <div key={key} className="flex gap-2 sm:col-span-3">
            <TextField
              className="flex-1"
              name={`dimensions.${index}.${key}.value`}
              label={t.rich("measure", { sr, context, measure })}
              required
              inputMode="decimal"
            />
            <SelectField
              className="w-20"
              name={`dimensions.${index}.${key}.unit`}
              label={t.rich("unit", { sr, context, measure: measure.toLocaleLowerCase() })}
              options={units}
            />
          </div>
        );
      })}
    </Row>
  );
}

export function DimensionsSection() {
  const t = useTranslations("skus.form.dimensions");
  const { control, getValues } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "dimensions" });
  const add = () => {
    const hasPackage = getValues("dimensions").some((dimension) => dimension.name === "package");
    rows.append(emptyDimension(hasPackage ? "product" : "package"), { shouldFocus: false });
  };
  return (
    <Group
      name="dimensions"
      legend={t("legend")}
      required
      hint={t("hint", { max: SKU_LIMITS.dimensionValue })}
      actions={
        <button type="button" className={smallButton} onClick={add}>
          {t("add")}
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <DimensionRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
      ))}
    </Group>
  );
}
