"use client";

import { useFieldArray, useFormContext } from "react-hook-form";
import { SKU_LIMITS } from "@/lib/marketplace/schemas/sku";
import { emptyMedia } from "@/lib/skus/sku-form";
import type { SkuFormState } from "@/lib/skus/sku-form";
import { Group, removeButton, Row, smallButton, SrOnly, TextField } from "./fields";

// Tags, media and extras: the SKU's optional lists and its free-form JSON.

export function TagsSection() {
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "tags" });
  return (
    <Group
      name="tags"
      legend="Tags"
      hint={`Optional; each 1 to ${SKU_LIMITS.tag} characters.`}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append({ value: "" }, { shouldFocus: false })}>
          Add a tag
        </button>
      }
    >
      {rows.fields.length > 0 ? (
        <div className="grid gap-3 sm:grid-cols-3">
          {rows.fields.map((row, index) => (
            <div key={row.id} className="flex items-end gap-2">
              <TextField className="flex-1" name={`tags.${index}.value`} label={`Tag ${index + 1}`} max={SKU_LIMITS.tag} />
              <button type="button" className={`${removeButton} mb-7`} onClick={() => rows.remove(index)} aria-label={`Remove tag ${index + 1}`}>
                Remove
              </button>
            </div>
          ))}
        </div>
      ) : null}
    </Group>
  );
}

export function MediaSection() {
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: "medias" });
  return (
    <Group
      name="medias"
      legend="Media"
      hint={`Optional images and other media: a name of 1 to ${SKU_LIMITS.mediaName} characters, a type such as image, and an http(s) URL.`}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyMedia(), { shouldFocus: false })}>
          Add media
        </button>
      }
    >
      {rows.fields.map((row, index) => (
        <Row key={row.id} removeLabel="Remove this media" onRemove={() => rows.remove(index)}>
          <TextField
            className="sm:col-span-3"
            name={`medias.${index}.name`}
            label={
              <>
                <SrOnly>Media {index + 1} </SrOnly>Name
              </>
            }
            max={SKU_LIMITS.mediaName}
          />
          <TextField
            className="sm:col-span-2"
            name={`medias.${index}.type`}
            label={
              <>
                <SrOnly>Media {index + 1} </SrOnly>Type
              </>
            }
          />
          <TextField
            className="sm:col-span-7"
            name={`medias.${index}.reference`}
            label={
              <>
                <SrOnly>Media {index + 1} </SrOnly>URL
              </>
            }
            type="url"
          />
        </Row>
      ))}
    </Group>
  );
}

export function ExtrasSection() {
  return (
    <Group name="extras-group" legend="Extras">
      <TextField
        name="extras"
        label="Extras (JSON object)"
        hint="Additional information as a JSON object; leave empty for none."
        multiline
        mono
        placeholder='{"warranty_months": 12}'
      />
    </Group>
  );
}
