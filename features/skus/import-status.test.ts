import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { SKU_STATUS } from "@marketplace/api/schemas/sku";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { explainImportStatus, formatFieldPath, importFieldToFormPath, mapImportErrors, parseFieldPath } from "./import-status";
import type { ImportOutcomeWords } from "./import-status";
import { emptyDisplayRow, emptySkuFormState } from "@/features/skus/empty-rows";
import type { SkuFormState } from "./sku-form-state";

function formWith(change: (state: SkuFormState) => void): SkuFormState {
  const state = emptySkuFormState();
  change(state);
  return state;
}

const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "skus.outcome" }) as unknown as ImportOutcomeWords;
const en = words("en");
const pt = words("pt-BR");

describe("explainImportStatus", () => {
  it("has a meaning and an action for every status code of the spec", () => {
    for (const { statusCode } of Object.values(SKU_STATUS)) {
      for (const t of [en, pt]) {
        const text = explainImportStatus(statusCode, t);
        expect(text.title).not.toMatch(/status code|código de status/);
        expect(text.meaning.length).toBeGreaterThan(10);
        expect(text.action.length).toBeGreaterThan(10);
      }
    }
  });

  it("statusCode 0 is a success that later checks may still reject", () => {
    const text = explainImportStatus(0, en);
    expect(text.tone).toBe("success");
    expect(text.meaning).toMatch(/later checks/);
    expect(explainImportStatus(0, pt).meaning).toMatch(/ainda podem rejeitá-lo/);
  });

  it("HTTP 200 with statusCode 0 says the SKU already exists and nothing was created", () => {
    const text = explainImportStatus(0, en, { alreadyExisted: true });
    expect(text).toMatchObject({ tone: "info", retry: false });
    expect(text.title).toBe("This SKU already exists: nothing was created");
    expect(explainImportStatus(0, pt, { alreadyExisted: true }).title).toBe("Este SKU já existe: nada foi criado");
  });

  it.each([
    [-1, /unexpected/i, true],
    [-2, /too many requests/i, true],
    [-3, /no SKU to import/i, true],
    [-4, /failed validation/i, false],
    [-5, /import is down/i, true],
    [-6, /permission/i, false],
  ])("statusCode %i → %s (retry: %s)", (code, title, retry) => {
    const text = explainImportStatus(code, en);
    expect(text.title).toMatch(title);
    expect(text.retry).toBe(retry);
  });

  it("tells the seller to reconnect with the portfolio scopes on -6", () => {
    expect(explainImportStatus(-6, en).action).toBe("Reconnect and grant portfolio:write and portfolio:read.");
    expect(explainImportStatus(-6, pt).action).toBe("Reconecte e conceda portfolio:write e portfolio:read.");
  });

  it("names an undocumented code instead of guessing", () => {
    expect(explainImportStatus(-9, en).title).toBe("The marketplace answered with status code -9");
    expect(explainImportStatus(-9, pt).title).toBe("O marketplace respondeu com o código de status -9");
  });
});

describe("field paths", () => {
  it.each([
    ["dimensions[0].height.value", ["dimensions", 0, "height", "value"]],
    ["title.pt_BR", ["title", "pt_BR"]],
    ["attributes.variant[2].display.en_US.name", ["attributes", "variant", 2, "display", "en_US", "name"]],
    ["tags[3]", ["tags", 3]],
    ["code", ["code"]],
    ["title.", ["title", ""]],
  ])("parses %s", (field, segments) => {
    expect(parseFieldPath(field)).toEqual(segments);
    expect(formatFieldPath(segments)).toBe(field);
  });
});

describe("importFieldToFormPath", () => {
  const state = formWith((form) => {
    form.titles.push({ language: "en_US", value: "Shirt" }, { language: "pt-br", value: "x" });
    form.descriptions.push(
      { language: "en_US", verbose_value: "", simplified_value: "" },
      { language: "pt_BR", verbose_value: "", simplified_value: "" },
    );
    form.attributes.variant.push({ name: "Size", value: "M", display: [emptyDisplayRow("en_US"), emptyDisplayRow("pt_BR")] });
  });

  it.each([
    // Paths the form shares with the body.
    ["code", "code"],
    ["dimensions[0].height.value", "dimensions[0].height.value"],
    ["dimensions[1].weight.unit", "dimensions[1].weight.unit"],
    ["identifiers[0].value", "identifiers[0].value"],
    ["medias[2].reference", "medias[2].reference"],
    ["datasheet.reference", "datasheet.reference"],
    ["tags[1]", "tags[1].value"],
    ["attributes.optional[0].name", "attributes.optional[0].name"],
    // Language keys → the row holding that language.
    ["title.pt_BR", "titles[0].value"],
    ["title.en_US", "titles[1].value"],
    ["title.pt-br", "titles[2].language"],
    ["title", "titles"],
    ["description", "descriptions"],
    ["description.pt_BR.verbose_value", "descriptions[1].verbose_value"],
    ["description.en_US.simplified_value", "descriptions[0].simplified_value"],
    ["attributes.variant[0].display", "attributes.variant[0].display"],
    ["attributes.variant[0].display.pt_BR.name", "attributes.variant[0].display[1].name"],
    ["attributes.variant[0].display.en_US.simplified_value", "attributes.variant[0].display[0].simplified_value"],
    // Extras are one JSON text.
    ["extras.colour", "extras"],
    // Nothing in the form: shown as they are.
    ["body", "body"],
    ["authorization", "authorization"],
    ["query.page", "query.page"],
  ])("%s → %s", (field, formPath) => {
    expect(importFieldToFormPath(field, state)).toBe(formPath);
  });

  it("points a missing pt_BR title at the title list when no row holds it", () => {
    const withoutPtBr = formWith((form) => (form.titles = [{ language: "en_US", value: "Shirt" }]));
    expect(importFieldToFormPath("title.pt_BR", withoutPtBr)).toBe("titles");
  });

  it("groups messages by form field, without repeats", () => {
    expect(
      mapImportErrors(
        [
          { field: "title.pt_BR", message: "is required" },
          { field: "identifiers[0].value", message: "the EAN check digit is wrong" },
          { field: "identifiers[0].value", message: "the EAN check digit is wrong" },
          { field: "dimensions[0].height.value", message: "must be 1 to 10 characters" },
          { field: "dimensions[0].height.value", message: "must be a decimal number" },
        ],
        state,
      ),
    ).toEqual({
      "titles[0].value": ["is required"],
      "identifiers[0].value": ["the EAN check digit is wrong"],
      "dimensions[0].height.value": ["must be 1 to 10 characters", "must be a decimal number"],
    });
  });
});
