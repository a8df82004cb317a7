"use client";

import { useTranslations } from "next-intl";
import { useFieldArray, useFormContext } from "react-hook-form";
import { identifierTypeSchema } from "@marketplace/api/schemas/sku";
import { emptyIdentifier } from "@/features/skus/empty-rows";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { Group, Row, SelectField, sr, TextField, useText } from "./fields";
import { smallButton } from "@/features/skus/components/form/styles";

function IdentifierRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const t = useTranslations("skus.form.identifiers");
  const type = useText(`identifiers.${index}.type`);
  return (
    <Row removeLabel={t("remove")} onRemove={onRemove}>
      <SelectField
        className="sm:col-span-3"
        name={`identifiers.${index}.type`}
        label={t.rich("type", { sr, position: index + 1 })}
        options={identifierTypeSchema.options}
        emptyOption={t("none")}
      />
      <TextField
        className="sm:col-span-9"
        name={`identifiers.${index}.value`}
        label={t.rich("value", { sr, position: index + 1 })}
        mono
        inputMode={type === "EAN" ? "numeric" : undefined}
      />
    </Row>
  );
}

export function IdentifiersSection() {
  const t = useTranslations("skus.form.identifiers");
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "identifiers" });
  return (
    <Group
      name="identifiers"
      legend={t("legend")}
      hint={t("hint")}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyIdentifier(), { shouldFocus: false })}>
          {t("add")}
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <IdentifierRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
      ))}
    </Group>
  );
}
