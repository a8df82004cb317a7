// What the SKU form starts with and the rows its "add" buttons append: blank, except the pt_BR title
// and the package dimension the platform requires.
import { MANDATORY_LANGUAGE } from "@marketplace/api/schemas/sku";
import type {
  TitleRow,
  DescriptionRow,
  DimensionState,
  IdentifierState,
  DisplayRow,
  AttributeState,
  MediaState,
  SkuFormState,
} from "./sku-form-state";

export function emptyDimension(name: string = "package"): DimensionState {
  return {
    name,
    height: { value: "", unit: "cm" },
    width: { value: "", unit: "cm" },
    length: { value: "", unit: "cm" },
    weight: { value: "", unit: "kg" },
  };
}

export const emptyTitleRow = (language = ""): TitleRow => ({ language, value: "" });
export const emptyDescriptionRow = (language = ""): DescriptionRow => ({ language, verbose_value: "", simplified_value: "" });
export const emptyDisplayRow = (language = ""): DisplayRow => ({ language, name: "", value: "", simplified_value: "" });
export const emptyAttribute = (): AttributeState => ({ name: "", value: "", display: [] });
export const emptyIdentifier = (): IdentifierState => ({ type: "EAN", value: "" });
export const emptyMedia = (): MediaState => ({ name: "", type: "image", reference: "" });

/** The pt_BR title and a package dimension are mandatory, so there from the start. */
export function emptySkuFormState(): SkuFormState {
  return {
    code: "",
    titles: [emptyTitleRow(MANDATORY_LANGUAGE)],
    variation_key: "",
    condition: "new",
    brand: "",
    tags: [],
    available: true,
    origin: "national",
    datasheet: { reference: "" },
    dimensions: [emptyDimension("package")],
    descriptions: [],
    identifiers: [],
    attributes: { variant: [], optional: [] },
    medias: [],
    extras: "",
  };
}
