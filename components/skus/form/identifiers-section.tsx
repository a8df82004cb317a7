"use client";

import { useFieldArray, useFormContext } from "react-hook-form";
import { identifierTypeSchema } from "@/lib/marketplace/schemas/sku";
import { emptyIdentifier } from "@/lib/skus/sku-form";
import type { SkuFormState } from "@/lib/skus/sku-form";
import { Group, Row, SelectField, smallButton, SrOnly, TextField, useText } from "./fields";

function IdentifierRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const type = useText(`identifiers.${index}.type`);
  return (
    <Row removeLabel="Remove this identifier" onRemove={onRemove}>
      <SelectField
        className="sm:col-span-3"
        name={`identifiers.${index}.type`}
        label={
          <>
            Type<SrOnly> of identifier {index + 1}</SrOnly>
          </>
        }
        options={identifierTypeSchema.options}
        emptyOption="(none)"
      />
      <TextField
        className="sm:col-span-9"
        name={`identifiers.${index}.value`}
        label={
          <>
            Value<SrOnly> of identifier {index + 1}</SrOnly>
          </>
        }
        mono
        inputMode={type === "EAN" ? "numeric" : undefined}
      />
    </Row>
  );
}

export function IdentifiersSection() {
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "identifiers" });
  return (
    <Group
      name="identifiers"
      legend="Identifiers"
      hint="Optional. An EAN has 8, 12, 13 or 14 digits with a valid check digit."
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyIdentifier(), { shouldFocus: false })}>
          Add an identifier
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <IdentifierRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
      ))}
    </Group>
  );
}
