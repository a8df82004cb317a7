"use client";

import { useFieldArray, useFormContext } from "react-hook-form";
import { MANDATORY_LANGUAGE } from "@/lib/marketplace/schemas/sku";
import { emptyAttribute, emptyDisplayRow } from "@/lib/skus/sku-form";
import type { AttributeGroup, SkuFormState } from "@/lib/skus/sku-form";
import { Group, removeButton, Row, smallButton, SrOnly, SubList, TextField, useText } from "./fields";

const GROUP_TEXT: Record<AttributeGroup, { legend: string; row: string; add: string; hint: string }> = {
  variant: {
    legend: "Variant attributes",
    row: "Variant attribute",
    add: "Add a variant attribute",
    hint: `What distinguishes this variation, such as size or colour. Each may be shown per language; ${MANDATORY_LANGUAGE} is then mandatory.`,
  },
  optional: {
    legend: "Optional attributes",
    row: "Optional attribute",
    add: "Add an optional attribute",
    hint: `Further characteristics. Each may be shown per language; ${MANDATORY_LANGUAGE} is then mandatory.`,
  },
};

/** How one attribute is shown per language: its own list of rows inside the attribute's row. */
function DisplayRows({ base, context }: { base: `attributes.${AttributeGroup}.${number}`; context: string }) {
  const { control, getValues } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: `${base}.display` });
  const add = () => {
    const hasMandatory = getValues(`${base}.display`).some((row) => row.language === MANDATORY_LANGUAGE);
    rows.append(emptyDisplayRow(hasMandatory ? "" : MANDATORY_LANGUAGE), { shouldFocus: false });
  };
  return (
    <SubList name={`${base}.display`} heading="How it is shown, per language">
      {rows.fields.map((row, index) => (
        <DisplayRow key={row.id} name={`${base}.display.${index}`} context={context} position={index + 1} onRemove={() => rows.remove(index)} />
      ))}
      <button type="button" className={smallButton} onClick={add}>
        Add a display language
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
  const language = useText(`${name}.language`);
  return (
    <div className="grid gap-2 sm:grid-cols-12">
      <TextField
        className="sm:col-span-2"
        name={`${name}.language`}
        label={
          <>
            <SrOnly>{context} display </SrOnly>Language
          </>
        }
        mono
      />
      <TextField
        className="sm:col-span-3"
        name={`${name}.name`}
        label={
          <>
            <SrOnly>{context} </SrOnly>Shown name
          </>
        }
      />
      <TextField
        className="sm:col-span-3"
        name={`${name}.value`}
        label={
          <>
            <SrOnly>{context} </SrOnly>Shown value
          </>
        }
      />
      <TextField
        className="sm:col-span-3"
        name={`${name}.simplified_value`}
        label={
          <>
            <SrOnly>{context} </SrOnly>Short value
          </>
        }
      />
      <div className="flex items-end sm:col-span-1">
        <button type="button" className={`${removeButton} mb-2`} onClick={onRemove} aria-label={`Remove ${context} display ${language || position}`}>
          Remove
        </button>
      </div>
    </div>
  );
}

function AttributeGroupSection({ group }: { group: AttributeGroup }) {
  const { control } = useFormContext<SkuFormState>();
  const rows = useFieldArray({ control, name: `attributes.${group}` });
  const text = GROUP_TEXT[group];
  return (
    <Group
      name={`attributes.${group}`}
      legend={text.legend}
      hint={text.hint}
      actions={
        <button type="button" className={smallButton} onClick={() => rows.append(emptyAttribute(), { shouldFocus: false })}>
          {text.add}
        </button>
      }
    >
      {rows.fields.map((row, index) => {
        const base = `attributes.${group}.${index}` as const;
        const context = `${text.row} ${index + 1}`;
        return (
          <Row key={row.id} removeLabel="Remove this attribute" onRemove={() => rows.remove(index)}>
            <TextField
              className="sm:col-span-6"
              name={`${base}.name`}
              label={
                <>
                  <SrOnly>{context} </SrOnly>Name
                </>
              }
              required
            />
            <TextField
              className="sm:col-span-6"
              name={`${base}.value`}
              label={
                <>
                  <SrOnly>{context} </SrOnly>Value
                </>
              }
              required
            />
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
