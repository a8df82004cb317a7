"use client";

import { useTranslations } from "next-intl";
import { useFieldArray, useFormContext } from "react-hook-form";
import { MANDATORY_LANGUAGE, SKU_LIMITS } from "@marketplace/api/schemas/sku";
import { emptyDescriptionRow, emptyTitleRow } from "@/features/skus/empty-rows";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { Group, Row, sr, TextField, useText } from "./fields";
import { smallButton } from "@/features/skus/components/form/styles";

// Titles and descriptions: objects keyed by language in the body, rows with a language field
// here (sku-form.ts converts). Rows are keyed by react-hook-form's ids, never by position.

function TitleRow({ index, onRemove }: { index: number; onRemove?: () => void }) {
  const t = useTranslations("skus.form.titles");
  const language = useText(`titles.${index}.language`);
  return (
    <Row removeLabel={t("remove")} onRemove={onRemove}>
      <TextField
        className="sm:col-span-3"
        name={`titles.${index}.language`}
        label={t.rich("language", { sr, position: index + 1 })}
        placeholder="en_US"
        mono
      />
      <TextField
        className="sm:col-span-9"
        name={`titles.${index}.value`}
        label={t("value", { language: language || t("newLanguage") })}
        required={language === MANDATORY_LANGUAGE}
        max={SKU_LIMITS.title}
      />
    </Row>
  );
}

export function TitlesSection() {
  const t = useTranslations("skus.form.titles");
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "titles" });
  return (
    <Group
      name="titles"
      legend={t("legend")}
      required
      hint={t("hint", { max: SKU_LIMITS.title, language: MANDATORY_LANGUAGE })}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyTitleRow(), { shouldFocus: false })}>
          {t("add")}
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <TitleRow key={row.id} index={index} onRemove={rows.fields.length > 1 ? () => rows.remove(index) : undefined} />
      ))}
    </Group>
  );
}

function DescriptionRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const t = useTranslations("skus.form.descriptions");
  const language = useText(`descriptions.${index}.language`) || t("newLanguage");
  return (
    <Row removeLabel={t("remove")} onRemove={onRemove}>
      <TextField
        className="sm:col-span-3"
        name={`descriptions.${index}.language`}
        label={t.rich("language", { sr, position: index + 1 })}
        mono
      />
      <TextField className="sm:col-span-9" name={`descriptions.${index}.verbose_value`} label={t("full", { language })} multiline />
      <TextField
        className="sm:col-span-12"
        name={`descriptions.${index}.simplified_value`}
        label={t("short", { language })}
        multiline
        max={SKU_LIMITS.simplifiedDescription}
      />
    </Row>
  );
}

export function DescriptionsSection() {
  const t = useTranslations("skus.form.descriptions");
  const { control, getValues } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "descriptions" });
  const add = () => {
    const hasMandatory = getValues("descriptions").some((row) => row.language === MANDATORY_LANGUAGE);
    rows.append(emptyDescriptionRow(hasMandatory ? "" : MANDATORY_LANGUAGE), { shouldFocus: false });
  };
  return (
    <Group
      name="descriptions"
      legend={t("legend")}
      hint={t("hint", { language: MANDATORY_LANGUAGE, max: SKU_LIMITS.simplifiedDescription })}
      actions={
        <button type="button" className={smallButton} onClick={add}>
          {t("add")}
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <DescriptionRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
      ))}
    </Group>
  );
}
