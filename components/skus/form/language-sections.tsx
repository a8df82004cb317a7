"use client";

import { useFieldArray, useFormContext } from "react-hook-form";
import { MANDATORY_LANGUAGE, SKU_LIMITS } from "@/lib/marketplace/schemas/sku";
import { emptyDescriptionRow, emptyTitleRow } from "@/lib/skus/sku-form";
import type { SkuFormState } from "@/lib/skus/sku-form";
import { Group, Row, smallButton, SrOnly, TextField, useText } from "./fields";

// Titles and descriptions: objects keyed by language in the body, rows with a language field
// here (sku-form.ts converts). Rows are keyed by react-hook-form's ids, never by position.

function TitleRow({ index, onRemove }: { index: number; onRemove?: () => void }) {
  const language = useText(`titles.${index}.language`);
  return (
    <Row removeLabel="Remove this title" onRemove={onRemove}>
      <TextField
        className="sm:col-span-3"
        name={`titles.${index}.language`}
        label={
          <>
            Language<SrOnly> of title {index + 1}</SrOnly>
          </>
        }
        placeholder="en_US"
        mono
      />
      <TextField
        className="sm:col-span-9"
        name={`titles.${index}.value`}
        label={`Title (${language || "new language"})`}
        required={language === MANDATORY_LANGUAGE}
        max={SKU_LIMITS.title}
      />
    </Row>
  );
}

export function TitlesSection() {
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "titles" });
  return (
    <Group
      name="titles"
      legend="Titles"
      required
      hint={`One title per language, 1 to ${SKU_LIMITS.title} characters. ${MANDATORY_LANGUAGE} is mandatory.`}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyTitleRow(), { shouldFocus: false })}>
          Add a title language
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
  const language = useText(`descriptions.${index}.language`) || "new language";
  return (
    <Row removeLabel="Remove this description" onRemove={onRemove}>
      <TextField
        className="sm:col-span-3"
        name={`descriptions.${index}.language`}
        label={
          <>
            Language<SrOnly> of description {index + 1}</SrOnly>
          </>
        }
        mono
      />
      <TextField className="sm:col-span-9" name={`descriptions.${index}.verbose_value`} label={`Full description (${language})`} multiline />
      <TextField
        className="sm:col-span-12"
        name={`descriptions.${index}.simplified_value`}
        label={`Short description (${language})`}
        multiline
        max={SKU_LIMITS.simplifiedDescription}
      />
    </Row>
  );
}

export function DescriptionsSection() {
  const { control, getValues } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "descriptions" });
  const add = () => {
    const hasMandatory = getValues("descriptions").some((row) => row.language === MANDATORY_LANGUAGE);
    rows.append(emptyDescriptionRow(hasMandatory ? "" : MANDATORY_LANGUAGE), { shouldFocus: false });
  };
  return (
    <Group
      name="descriptions"
      legend="Descriptions"
      hint={`Optional. When you give any, ${MANDATORY_LANGUAGE} is mandatory. The short text is at most ${SKU_LIMITS.simplifiedDescription} characters.`}
      actions={
        <button type="button" className={smallButton} onClick={add}>
          Add a description language
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <DescriptionRow key={row.id} index={index} onRemove={() => rows.remove(index)} />
      ))}
    </Group>
  );
}
