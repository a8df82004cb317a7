"use client";

import { useTranslations } from "next-intl";
import { useFieldArray, useFormContext } from "react-hook-form";
import { SKU_LIMITS } from "@marketplace/api/schemas/sku";
import { emptyMedia } from "@/features/skus/empty-rows";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { Group, Row, sr, TextField } from "./fields";
import { removeButton, smallButton } from "@/features/skus/components/form/styles";

// Tags, media and extras: the SKU's optional lists and its free-form JSON.

export function TagsSection() {
  const t = useTranslations("skus.form");
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "tags" });
  return (
    <Group
      name="tags"
      legend={t("tags.legend")}
      hint={t("tags.hint", { max: SKU_LIMITS.tag })}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append({ value: "" }, { shouldFocus: false })}>
          {t("tags.add")}
        </button>
      }
    >
      {rows.fields.length > 0 ? (
        <div className="grid gap-3 sm:grid-cols-3">
          {rows.fields.map((row, index) => (
            <div key={row.id} className="flex items-end gap-2">
              <TextField
                className="flex-1"
                name={`tags.${index}.value`}
                label={t("tags.tag", { position: index + 1 })}
                max={SKU_LIMITS.tag}
              />
              <button
                type="button"
                className={`${removeButton} mb-7`}
                onClick={() => rows.remove(index)}
                aria-label={t("tags.remove", { position: index + 1 })}
              >
                {t("remove")}
              </button>
            </div>
          ))}
        </div>
      ) : null}
    </Group>
  );
}

export function MediaSection() {
  const t = useTranslations("skus.form.medias");
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "medias" });
  return (
    <Group
      name="medias"
      legend={t("legend")}
      hint={t("hint", { max: SKU_LIMITS.mediaName })}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyMedia(), { shouldFocus: false })}>
          {t("add")}
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <Row key={row.id} removeLabel={t("remove")} onRemove={() => rows.remove(index)}>
          <TextField
            className="sm:col-span-3"
            name={`medias.${index}.name`}
            label={t.rich("name", { sr, position: index + 1 })}
            max={SKU_LIMITS.mediaName}
          />
          <TextField className="sm:col-span-2" name={`medias.${index}.type`} label={t.rich("type", { sr, position: index + 1 })} />
          <TextField
            className="sm:col-span-7"
            name={`medias.${index}.reference`}
            label={t.rich("url", { sr, position: index + 1 })}
            type="url"
          />
        </Row>
      ))}
    </Group>
  );
}

export function ExtrasSection() {
  const t = useTranslations("skus.form.extras");
  return (
    <Group name="extras-group" legend={t("legend")}>
      <TextField
        name="extras"
        label={t("label")}
        hint={t("hint")}
        multiline
        mono
        // An example of the JSON the field takes: code, the same in every language.
        placeholder='{"warranty_months": 12}'
      />
    </Group>
  );
}
