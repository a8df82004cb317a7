// Valid sample payloads for tests (sandbox and dashboard alike).
import type { SkuCreateInput } from "./sku";
import type { PriceCreateInput } from "./price";

/** A SKU create body that satisfies every constraint of the spec's SKU table. */
export function sampleSku(code = "CAM-TEST-001"): SkuCreateInput {
  return {
    code,
    title: { pt_BR: "Camiseta Teste Algodão", en_US: "Test cotton T-shirt" },
    variation_key: "",
    condition: "new",
    brand: "Malha Brasil",
    tags: ["camiseta", "algodão"],
    available: true,
    origin: "national",
    datasheet: { reference: "https://example.com/datasheet.pdf" },
    dimensions: [
      {
        name: "package",
        height: { value: 3, unit: "cm" },
        width: { value: 25, unit: "cm" },
        length: { value: "30.5", unit: "cm" },
        weight: { value: 0.2, unit: "kg" },
      },
    ],
    description: { pt_BR: { verbose_value: "Camiseta de algodão para testes.", simplified_value: "" } },
    identifiers: [{ type: "EAN", value: "7891000315507" }],
    attributes: { variant: [{ name: "Tamanho", value: "M", display: { pt_BR: { name: "Tamanho", value: "Médio" } } }] },
    medias: [{ name: "frente", type: "image", reference: "https://example.com/cam.jpg" }],
    extras: {},
  };
}

export function samplePrice(sku = "CAM-TEST-001", overrides: Partial<PriceCreateInput> = {}): PriceCreateInput {
  return { type: "sell", sku, value: 4990, currency: "BRL", normalizer: 100, extras: {}, ...overrides };
}
