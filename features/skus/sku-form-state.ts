// What the SKU form edits: the SKU body, with objects keyed by language as rows (the seller edits
// the key too). Its own module, since both the form's validation and the import's error mapping need it.

export const ATTRIBUTE_GROUPS = ["variant", "optional"] as const;
export type AttributeGroup = (typeof ATTRIBUTE_GROUPS)[number];

export interface TitleRow {
  language: string;
  value: string;
}
export interface DescriptionRow {
  language: string;
  verbose_value: string;
  simplified_value: string;
}
/** An object, since form libraries give each list row a stable key. */
export interface TagRow {
  value: string;
}
export interface MeasureState {
  /** As typed: the spec limits the text. */
  value: string;
  unit: string;
}
export interface DimensionState {
  name: string;
  height: MeasureState;
  width: MeasureState;
  length: MeasureState;
  weight: MeasureState;
}
export interface IdentifierState {
  /** "" for none: the spec makes both fields optional. */
  type: string;
  value: string;
}
export interface DisplayRow {
  language: string;
  name: string;
  value: string;
  simplified_value: string;
}
export interface AttributeState {
  name: string;
  value: string;
  display: DisplayRow[];
}
export interface MediaState {
  name: string;
  type: string;
  reference: string;
}

export interface SkuFormState {
  code: string;
  titles: TitleRow[];
  variation_key: string;
  condition: string;
  brand: string;
  tags: TagRow[];
  available: boolean;
  origin: string;
  datasheet: { reference: string };
  dimensions: DimensionState[];
  descriptions: DescriptionRow[];
  identifiers: IdentifierState[];
  attributes: Record<AttributeGroup, AttributeState[]>;
  medias: MediaState[];
  /** JSON text; empty means `{}`. */
  extras: string;
}

export type FieldErrors = Record<string, string[]>;
