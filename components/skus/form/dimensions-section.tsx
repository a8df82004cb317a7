"use client";

import { useFieldArray, useFormContext } from "react-hook-form";
import { dimensionNameSchema, lengthUnitSchema, SKU_LIMITS, weightUnitSchema } from "@/lib/marketplace/schemas/sku";
import { emptyDimension } from "@/lib/skus/sku-form";
import type { SkuFormState } from "@/lib/skus/sku-form";
import { Group, Row, SelectField, smallButton, SrOnly, TextField, useText } from "./fields";

const MEASURES = [
  { key: "height", label: "Height", units: lengthUnitSchema.options },
  { key: "width", label: "Width", units: lengthUnitSchema.options },
  { key: "length", label: "Length", units: lengthUnitSchema.options },
  { key: "weight", label: "Weight", units: weightUnitSchema.options },
] as const;

function DimensionRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const context = `Dimensions ${index + 1} (${useText(`dimensions.${index}.name`) || "unnamed"})`;
  return (
    <Row removeLabel="Remove these dimensions" onRemove={onRemove}>
      <SelectField
        className="sm:col-span-12 sm:max-w-48"
        name={`dimensions.${index}.name`}
        label={
          <>
            Dimensions of<SrOnly> (set {index + 1})</SrOnly>
          </>
        }
        options={dimensionNameSchema.options}
      />
      {MEASURES.map(({ key, label, units }) => (
        <div key={key} className="flex gap-2 sm:col-span-3">
          <TextField
            className="flex-1"
            name={`dimensions.${index}.${key}.value`}
            label={
              <>
                <SrOnly>{context} </SrOnly>
                {label}
              </>
            }
            required
            inputMode="decimal"
          />
          <SelectField
            className="w-20"
            name={`dimensions.${index}.${key}.unit`}
            label={
              <>
                <SrOnly>
                  {context} {label.toLowerCase()}{" "}
                </SrOnly>
                Unit
              </>
            }
            options={units}
          />
        </div>
      ))}
    </Row>
  );
}

export function DimensionsSection() {
  const { control, getValues } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "dimensions" });
  const add = () => {
    const hasPackage = getValues("dimensions").some((dimension) => dimension.name === "package");
    rows.append(emptyDimension(hasPackage ? "product" : "package"), { shouldFocus: false });
  };
  return (
    <Group
      name="dimensions"
      legend="Dimensions"
      required
      hint={`The package dimensions are required; the product's are optional. Values are decimals of 1 to ${SKU_LIMITS.dimensionValue} characters, such as 30.5.`}
      actions={
        <button type="button" className={smallButton} onClick={add}>
          Add dimensions
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <DimensionRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
      ))}
    </Group>
  );
}
