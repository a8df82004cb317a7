import { describe, expect, it } from "vitest";
import { sampleSku } from "./fixtures";
import { formatIssuePath, hasValidGs1CheckDigit, isValidEan, skuCreateSchema, skuImportResponseSchema, type SkuCreateInput } from "./sku";

function fieldsOf(input: unknown): string[] {
  const result = skuCreateSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => formatIssuePath(issue.path));
}

function withChange(change: (sku: SkuCreateInput) => void): SkuCreateInput {
  const sku = structuredClone(sampleSku());
  change(sku);
  return sku;
}

const dimension = (value: number | string) =>
  withChange((sku) => {
    const [first] = sku.dimensions;
    if (first) first.height.value = value;
  });

describe("skuCreateSchema", () => {
  it("accepts the sample SKU", () => {
    expect(fieldsOf(sampleSku())).toEqual([]);
  });

  it.each([
    [0, false],
    [1, true],
    [50, true],
    [51, false],
  ])("code of %i characters → valid %s", (length, valid) => {
    expect(fieldsOf(withChange((sku) => (sku.code = "x".repeat(length)))).includes("code")).toBe(!valid);
  });

  it.each([
    [0, false],
    [1, true],
    [150, true],
    [151, false],
  ])("title of %i characters → valid %s", (length, valid) => {
    expect(fieldsOf(withChange((sku) => (sku.title = { pt_BR: "t".repeat(length) }))).includes("title.pt_BR")).toBe(!valid);
  });

  it("requires title in pt_BR", () => {
    expect(fieldsOf(withChange((sku) => (sku.title = { en_US: "Shirt" })))).toEqual(["title.pt_BR"]);
  });

  it("rejects language keys not of the form pt_BR", () => {
    expect(fieldsOf(withChange((sku) => (sku.title = { pt_BR: "ok", "Portuguese!": "x" })))).toContain("title.Portuguese!");
  });

  it.each([
    [50, true],
    [51, false],
  ])("variation_key of %i characters → valid %s", (length, valid) => {
    expect(fieldsOf(withChange((sku) => (sku.variation_key = "v".repeat(length)))).includes("variation_key")).toBe(!valid);
  });

  it("accepts an empty variation_key", () => {
    expect(fieldsOf(withChange((sku) => (sku.variation_key = "")))).toEqual([]);
  });

  it.each([
    [0, false],
    [1, true],
    [70, true],
    [71, false],
  ])("brand of %i characters → valid %s", (length, valid) => {
    expect(fieldsOf(withChange((sku) => (sku.brand = "b".repeat(length)))).includes("brand")).toBe(!valid);
  });

  it.each([
    [0, false],
    [1, true],
    [100, true],
    [101, false],
  ])("tag of %i characters → valid %s", (length, valid) => {
    expect(fieldsOf(withChange((sku) => (sku.tags = ["ok", "t".repeat(length)]))).includes("tags[1]")).toBe(!valid);
  });

  it.each([
    [1000, true],
    [1001, false],
  ])("simplified_value of %i characters → valid %s", (length, valid) => {
    const sku = withChange((draft) => (draft.description = { pt_BR: { simplified_value: "s".repeat(length) } }));
    expect(fieldsOf(sku).includes("description.pt_BR.simplified_value")).toBe(!valid);
  });

  it("rejects an empty verbose_value", () => {
    expect(fieldsOf(withChange((sku) => (sku.description = { pt_BR: { verbose_value: "" } })))).toEqual([
      "description.pt_BR.verbose_value",
    ]);
  });

  it("description: {} is allowed, but languages without pt_BR are not", () => {
    expect(fieldsOf(withChange((sku) => (sku.description = {})))).toEqual([]);
    expect(fieldsOf(withChange((sku) => (sku.description = { en_US: { verbose_value: "Shirt" } })))).toEqual(["description"]);
  });

  it("attributes: {} is allowed; a display without pt_BR is not", () => {
    expect(fieldsOf(withChange((sku) => (sku.attributes = {})))).toEqual([]);
    const sku = withChange(
      (draft) => (draft.attributes = { optional: [{ name: "Cor", value: "Azul", display: { en_US: { name: "Color" } } }] }),
    );
    expect(fieldsOf(sku)).toEqual(["attributes.optional[0].display"]);
  });

  it("attribute items need a name and a value", () => {
    const sku = withChange((draft) => (draft.attributes = { variant: [{ name: "", value: "" }] }));
    expect(fieldsOf(sku)).toEqual(["attributes.variant[0].name", "attributes.variant[0].value"]);
  });

  it.each([
    [3, true],
    ["1234567890", true],
    ["12345678901", false],
    [1234.56789, true],
    [123456.78912, false],
    ["", false],
    ["abc", false],
  ])("dimension value %j → valid %s", (value, valid) => {
    expect(fieldsOf(dimension(value)).some((field) => field.startsWith("dimensions[0].height.value"))).toBe(!valid);
  });

  it("requires one package dimension", () => {
    const sku = withChange((draft) => {
      const [first] = draft.dimensions;
      if (first) first.name = "product";
    });
    expect(fieldsOf(sku)).toEqual(["dimensions"]);
    expect(fieldsOf(withChange((draft) => (draft.dimensions = [])))).toEqual(["dimensions"]);
  });

  it("checks dimension units", () => {
    const sku = withChange((draft) => {
      const [first] = draft.dimensions;
      if (first) (first.weight as { unit: string }).unit = "lb";
    });
    expect(fieldsOf(sku)).toEqual(["dimensions[0].weight.unit"]);
  });

  it.each([
    ["96385074", true], // EAN-8
    ["96385075", false],
    ["036000291452", true], // UPC-A as 12 digits
    ["036000291453", false],
    ["7891000315507", true], // EAN-13
    ["7891000315508", false],
    ["00012345600012", true], // GTIN-14
    ["00012345600013", false],
    ["1234567", false], // 7 digits
    ["123456789", false], // 9 digits
    ["123456789012345", false], // 15 digits
    ["78910003155a7", false],
  ])("EAN %s → valid %s", (value, valid) => {
    expect(fieldsOf(withChange((sku) => (sku.identifiers = [{ type: "EAN", value }])))).toEqual(valid ? [] : ["identifiers[0].value"]);
  });

  it("checks only EANs for digits", () => {
    expect(fieldsOf(withChange((sku) => (sku.identifiers = [{ type: "NCM", value: "6109.10.00" }])))).toEqual([]);
  });

  it("rejects enums outside the table and non-URLs", () => {
    const sku = withChange((draft) => {
      (draft as { condition: string }).condition = "broken";
      (draft as { origin: string }).origin = "mars";
      draft.datasheet = { reference: "not a url" };
      draft.medias = [{ name: "m".repeat(51), reference: "ftp://example.com/x.jpg" }];
    });
    expect(fieldsOf(sku).sort()).toEqual(["condition", "datasheet.reference", "medias[0].name", "medias[0].reference", "origin"]);
  });

  it("requires every mandatory field", () => {
    expect(fieldsOf({}).sort()).toEqual(
      [
        "attributes",
        "available",
        "brand",
        "code",
        "condition",
        "datasheet",
        "description",
        "dimensions",
        "extras",
        "identifiers",
        "medias",
        "origin",
        "tags",
        "title",
        "variation_key",
      ].sort(),
    );
  });
});

describe("GS1 helpers", () => {
  it("computes check digits of every GTIN length", () => {
    expect(hasValidGs1CheckDigit("40170725")).toBe(true);
    expect(isValidEan("4006381333931")).toBe(true);
    expect(isValidEan("4006381333932")).toBe(false);
    expect(isValidEan("40063813339")).toBe(false);
  });
});

describe("skuImportResponseSchema", () => {
  it("parses a success and a failure", () => {
    const data = skuCreateSchema.parse(sampleSku());
    expect(
      skuImportResponseSchema.safeParse({
        token: "t",
        id: "a".repeat(24),
        sku: data.code,
        statusCode: 0,
        statusMessage: "ok",
        errors: [],
        data,
      }).success,
    ).toBe(true);
    expect(
      skuImportResponseSchema.safeParse({
        token: "t",
        id: null,
        sku: null,
        statusCode: -4,
        statusMessage: "x",
        errors: [{ field: "code", message: "m" }],
        data: null,
      }).success,
    ).toBe(true);
    expect(
      skuImportResponseSchema.safeParse({ token: "t", id: null, sku: null, statusCode: -7, statusMessage: "x", errors: [], data: null })
        .success,
    ).toBe(false);
  });
});
