"use client";

import { useTranslations } from "next-intl";
import { useFieldArray, useFormContext } from "react-hook-form";
import { MANDATORY_LANGUAGE } from "@marketplace/api/schemas/sku";
import { emptyAttribute, emptyDisplayRow } from "@/features/skus/empty-rows";
import type { AttributeGroup, SkuFormState } from "@/features/skus/sku-form-state";
import { Group, Row, sr, SubList, TextField, useText } from "./fields";
import { removeButton, smallButton } from "@/features/skus/components/form/styles";

/** How one attribute is shown per language: its own list of rows inside the attribute's row. */
function DisplayRows({ base, context }: { base: `attributes.${AttributeGroup}.${number}`; context: string }) {
  const t = useTranslations("skus.form.attributes.display");
  const { control, getValues } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: `${base}.display` });
  const add = () => {
    const hasMandatory = getValues(`${base}.display`).some((row) => row.language === MANDATORY_LANGUAGE);
    rows.append(emptyDisplayRow(hasMandatory ? "" : MANDATORY_LANGUAGE), { shouldFocus: false });
  };
  return (
    <SubList name={`${base}.display`} heading={t("heading")}>
      {rows.fields.map((row, index) => (
        <DisplayRow
          key={row.id}
          name={`${base}.display.${index}`}
          context={context}
          position={index + 1}
          onRemove={() => rows.remove(index)}
        />
      ))}
      <button type="button" className={smallButton} onClick={add}>
        {t("add")}
      </button>
    </SubList>
  );
}

function DisplayRow({
  name,
  context,
  position,
  onRemove,
}: {
  name: `attributes.${AttributeGroup}.${number}.display.${number}`;
  context: string;
  position: number;
  onRemove: () => void;
}) {
  const t = useTranslations("skus.form");
  const language = useText(`${name}.language`);
  return (
    <div className="grid gap-2 sm:grid-cols-12">
      <TextField className="sm:col-span-2" name={`${name}.language`} label={t.rich("attributes.display.language", { sr, context })} mono />
      <TextField className="sm:col-span-3" name={`${name}.name`} label={t.rich("attributes.display.name", { sr, context })} />
      <TextField className="sm:col-span-3" name={`${name}.value`} label={t.rich("attributes.display.value", { sr, context })} />
      <TextField className="sm:col-span-3" name={`${name}.simplified_value`} label={t.rich("attributes.display.short", { sr, context })} />
      <div className="flex items-end sm:col-span-1">
        <button
          type="button"
          className={`${removeButton} mb-2`}
          onClick={onRemove}
          aria-label={t("attributes.display.remove", { context, which: language || position })}
        >
          {t("remove")}
        </button>
      </div>
    </div>
  );
}

function AttributeGroupSection({ group }: { group: AttributeGroup }) {
  const t = useTranslations("skus.form.attributes");
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: `attributes.${group}` });
  return (
    <Group
      name={`attributes.${group}`}
      legend={t(`${group}.legend`)}
      hint={t(`${group}.hint`, { language: MANDATORY_LANGUAGE })}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyAttribute(), { shouldFocus: false })}>
          {t(`${group}.add`)}
        </button>
      }
    >
      {rows.fields.map((row, index) => {
        const base = `attributes.${group}.${index}` as const;
        const context = t(`${group}.row`, { position: index + 1 });
        return (
          <Row key={row.id} removeLabel={t("remove")} onRemove={() => rows.remove(index)}>
            <TextField className="sm:col-span-6" name={`${base}.name`} label={t.rich("name", { sr, context })} required />
            <TextField className="sm:col-span-6" name={`${base}.value`} label={t.rich("value", { sr, context })} required />
            <div className="sm:col-span-12">
              <DisplayRows base={base} context={context} />
            </div>
          </Row>
        );
      })}
    </Group>
  );
}

export function AttributesSections() {
  return (
    <>
      <AttributeGroupSection group="variant" />
      <AttributeGroupSection group="optional" />
    </>
  );
}
