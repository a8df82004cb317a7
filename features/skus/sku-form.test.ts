import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { formStateToSkuBody, skuIssuesToImportErrors, skuToFormState, validateSku } from "./sku-form";
import { emptyDimension, emptySkuFormState } from "@/features/skus/empty-rows";
import type { SkuValidationWords } from "./sku-form";
import type { SkuFormState } from "./sku-form-state";

const words = (locale: "en" | "pt-BR") =>
  createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "skus.validation" }) as unknown as SkuValidationWords;
const en = words("en");
const pt = words("pt-BR");

function validForm(): SkuFormState {
  return skuToFormState(sampleSku("FORM-001"));
}

function formWith(change: (state: SkuFormState) => void): SkuFormState {
  const state = validForm();
  change(state);
  return state;
}

const errorsOf = (state: SkuFormState, t = en) => validateSku(state, t).errors;

describe("skuToFormState → formStateToSkuBody", () => {
  it("round-trips the sample SKU to a body the shared schema accepts", () => {
    const { body, errors } = formStateToSkuBody(validForm(), en);
    expect(errors).toEqual({});
    const parsed = skuCreateSchema.parse(body);
    const expected = sampleSku("FORM-001");
    // Decimal strings go out as numbers: the spec types dimension values as floats.
    expected.dimensions[0]!.length.value = 30.5;
    expect(parsed).toEqual(expected);
  });

  it("puts pt_BR first among the titles", () => {
    const state = skuToFormState({ ...sampleSku(), title: { en_US: "Shirt", pt_BR: "Camiseta" } });
    expect(state.titles.map((row) => row.language)).toEqual(["pt_BR", "en_US"]);
  });

  it("shows extras as JSON text and sends them back as an object", () => {
    const state = skuToFormState({ ...sampleSku(), extras: { warranty: { months: 12 } } });
    expect(JSON.parse(state.extras)).toEqual({ warranty: { months: 12 } });
    expect(formStateToSkuBody(state, en).body.extras).toEqual({ warranty: { months: 12 } });
  });

  it("sends the 'none' forms the spec asks for", () => {
    const state = emptySkuFormState();
    const { body } = formStateToSkuBody(state, en);
    expect(body).toMatchObject({ tags: [], datasheet: {}, description: {}, identifiers: [], attributes: {}, medias: [], extras: {} });
  });

  it("leaves empty optional texts out and keeps simplified_value as an empty string", () => {
    const state = formWith((form) => {
      form.descriptions = [{ language: "pt_BR", verbose_value: "", simplified_value: "" }];
      form.medias = [{ name: "", type: "image", reference: "" }];
      form.identifiers = [{ type: "", value: "" }];
    });
    const { body } = formStateToSkuBody(state, en);
    expect(body.description).toEqual({ pt_BR: { simplified_value: "" } });
    expect(body.medias).toEqual([{ type: "image" }]);
    expect(body.identifiers).toEqual([{}]);
  });

  it("drops language rows left entirely blank", () => {
    const state = formWith((form) => {
      form.titles.push({ language: "", value: "" });
      form.attributes.variant[0]!.display.push({ language: "", name: "", value: "", simplified_value: "" });
    });
    expect(validateSku(state, en)).toMatchObject({ ok: true });
  });
});

describe("validateSku", () => {
  it("accepts the sample and answers the parsed SKU", () => {
    const result = validateSku(validForm(), en);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.sku.code).toBe("FORM-001");
  });

  it.each([
    [0, false],
    [1, true],
    [50, true],
    [51, false],
  ])("code of %i characters → valid %s", (length, valid) => {
    const errors = errorsOf(formWith((form) => (form.code = "x".repeat(length))));
    expect("code" in errors).toBe(!valid);
  });

  it("words the rules for the seller", () => {
    expect(errorsOf(formWith((form) => (form.code = "")))).toEqual({ code: ["is required"] });
    expect(errorsOf(formWith((form) => (form.code = "x".repeat(51))))).toEqual({ code: ["must be at most 50 characters"] });
    expect(errorsOf(formWith((form) => (form.condition = ""))).condition).toEqual(["must be one of: new, used, remanufactured"]);
    // The schema's own wording stays.
    expect(errorsOf(formWith((form) => (form.dimensions[0]!.width.value = "")))["dimensions[0].width.value"]).toEqual([
      "must be 1 to 10 characters",
      "must be a decimal number",
    ]);
  });

  it("puts a missing pt_BR title on the title list, an empty one on its row", () => {
    expect(errorsOf(formWith((form) => (form.titles = [{ language: "en_US", value: "Shirt" }]))).titles).toEqual([
      "title in pt_BR is required",
    ]);
    expect(errorsOf(formWith((form) => (form.titles[0]!.value = "")))).toEqual({ "titles[0].value": ["is required"] });
    expect(errorsOf(formWith((form) => (form.titles[0]!.value = "x".repeat(151))))).toEqual({
      "titles[0].value": ["must be at most 150 characters"],
    });
  });

  it("reports a malformed language on the language field", () => {
    const errors = errorsOf(formWith((form) => form.titles.push({ language: "english", value: "Shirt" })));
    expect(errors).toEqual({ "titles[2].language": ["must be a language code such as pt_BR"] });
  });

  it("reports a language given twice instead of losing a row", () => {
    const errors = errorsOf(formWith((form) => form.titles.push({ language: "pt_BR", value: "Outra" })));
    expect(errors).toEqual({ "titles[2].language": ["language pt_BR is given twice"] });
  });

  it("checks the EAN check digit and length", () => {
    expect(errorsOf(formWith((form) => (form.identifiers[0]!.value = "7891000315508")))).toEqual({
      "identifiers[0].value": ["the EAN check digit is wrong"],
    });
    expect(errorsOf(formWith((form) => (form.identifiers[0]!.value = "12345")))).toEqual({
      "identifiers[0].value": ["an EAN must have 8, 12, 13 or 14 digits"],
    });
    expect(errorsOf(formWith((form) => (form.identifiers[0] = { type: "NCM", value: "61091000" })))).toEqual({});
  });

  it.each([
    ["1", true],
    ["1234567890", true],
    ["12345678901", false],
    ["0.2", true],
    ["", false],
    ["abc", false],
    ["-1", false],
  ])("dimension value %j → valid %s", (value, valid) => {
    const errors = errorsOf(formWith((form) => (form.dimensions[0]!.height.value = value)));
    expect("dimensions[0].height.value" in errors).toBe(!valid);
  });

  it("needs a package dimension", () => {
    expect(
      errorsOf(formWith((form) => (form.dimensions = [{ ...emptyDimension("product"), ...validForm().dimensions[0]!, name: "product" }]))),
    ).toEqual({
      dimensions: ["must contain one item named package"],
    });
  });

  it("needs pt_BR among description and display languages when any is given", () => {
    expect(errorsOf(formWith((form) => (form.descriptions[0]!.language = "en_US")))).toEqual({
      descriptions: ["description must include language pt_BR"],
    });
    expect(errorsOf(formWith((form) => (form.attributes.variant[0]!.display[0]!.language = "en_US")))).toEqual({
      "attributes.variant[0].display": ["display must include language pt_BR"],
    });
  });

  it("puts description errors on the row of their language", () => {
    const errors = errorsOf(formWith((form) => (form.descriptions[0]!.simplified_value = "x".repeat(1001))));
    expect(Object.keys(errors)).toEqual(["descriptions[0].simplified_value"]);
  });

  it("checks URLs, tags and media names", () => {
    expect(Object.keys(errorsOf(formWith((form) => (form.datasheet.reference = "not a url"))))).toEqual(["datasheet.reference"]);
    expect(Object.keys(errorsOf(formWith((form) => (form.medias[0]!.reference = "ftp://example.com/x.jpg"))))).toEqual([
      "medias[0].reference",
    ]);
    expect(Object.keys(errorsOf(formWith((form) => (form.medias[0]!.name = "x".repeat(51)))))).toEqual(["medias[0].name"]);
    expect(Object.keys(errorsOf(formWith((form) => (form.tags = [{ value: "ok" }, { value: "" }]))))).toEqual(["tags[1].value"]);
    expect(Object.keys(errorsOf(formWith((form) => (form.tags = [{ value: "x".repeat(101) }]))))).toEqual(["tags[0].value"]);
  });

  it("checks brand and variation key lengths", () => {
    expect(Object.keys(errorsOf(formWith((form) => (form.brand = "x".repeat(71)))))).toEqual(["brand"]);
    expect(errorsOf(formWith((form) => (form.brand = "x".repeat(70))))).toEqual({});
    expect(Object.keys(errorsOf(formWith((form) => (form.variation_key = "x".repeat(51)))))).toEqual(["variation_key"]);
  });

  it("needs extras to be a JSON object", () => {
    expect(errorsOf(formWith((form) => (form.extras = "{")))).toMatchObject({ extras: ["is not valid JSON"] });
    expect(errorsOf(formWith((form) => (form.extras = "[1]"))).extras).toEqual(['must be a JSON object, such as {} or {"key": "value"}']);
    expect(errorsOf(formWith((form) => (form.extras = '{"a": 1}')))).toEqual({});
  });
});

describe("validateSku in Portuguese", () => {
  it("words the schema's rules and the form's own checks in Portuguese", () => {
    expect(
      errorsOf(
        formWith((form) => (form.code = "")),
        pt,
      ),
    ).toEqual({ code: ["campo obrigatório"] });
    expect(
      errorsOf(
        formWith((form) => (form.code = "x".repeat(51))),
        pt,
      ),
    ).toEqual({ code: ["deve ter no máximo 50 caracteres"] });
    expect(
      errorsOf(
        formWith((form) => (form.condition = "")),
        pt,
      ).condition,
    ).toEqual(["deve ser uma destas opções: new, used, remanufactured"]);
    expect(
      errorsOf(
        formWith((form) => (form.dimensions[0]!.width.value = "")),
        pt,
      )["dimensions[0].width.value"],
    ).toEqual(["deve ter de 1 a 10 caracteres", "deve ser um número decimal, com ponto (como 30.5)"]);
    expect(
      errorsOf(
        formWith((form) => (form.titles = [{ language: "en_US", value: "Shirt" }])),
        pt,
      ).titles,
    ).toEqual(["o título em pt_BR é obrigatório"]);
    expect(
      errorsOf(
        formWith((form) => form.titles.push({ language: "english", value: "Shirt" })),
        pt,
      ),
    ).toEqual({
      "titles[2].language": ["deve ser um código de idioma como pt_BR"],
    });
    expect(
      errorsOf(
        formWith((form) => form.titles.push({ language: "pt_BR", value: "Outra" })),
        pt,
      ),
    ).toEqual({
      "titles[2].language": ["o idioma pt_BR foi informado duas vezes"],
    });
    expect(
      errorsOf(
        formWith((form) => (form.identifiers[0]!.value = "7891000315508")),
        pt,
      ),
    ).toEqual({
      "identifiers[0].value": ["o dígito verificador do EAN está incorreto"],
    });
    expect(
      errorsOf(
        formWith((form) => (form.extras = "[1]")),
        pt,
      ).extras,
    ).toEqual(['deve ser um objeto JSON, como {} ou {"chave": "valor"}']);
    expect(
      errorsOf(
        formWith((form) => (form.extras = "{")),
        pt,
      ).extras,
    ).toEqual(["não é um JSON válido"]);
  });
});

describe("skuIssuesToImportErrors", () => {
  it("answers the platform's errors form, for the server action", () => {
    const parsed = skuCreateSchema.safeParse({ ...sampleSku(), code: "" });
    expect(parsed.success).toBe(false);
    if (!parsed.success) {
      expect(skuIssuesToImportErrors(parsed.error, en)).toEqual([{ field: "code", message: "is required" }]);
      expect(skuIssuesToImportErrors(parsed.error, pt)).toEqual([{ field: "code", message: "campo obrigatório" }]);
    }
  });
});
