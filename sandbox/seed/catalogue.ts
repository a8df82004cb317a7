// The product catalogue: product types with their variants, EANs with a GS1 check digit, and the
// SKUs with list and sell prices every PRO seller starts with.
import type { SkuCreate } from "@marketplace/api/schemas/sku";
import { createObjectIdFactory, SeededRandom } from "../random";
import { canonicalJson, type SandboxStore } from "../store";
import { iso } from "./time";

export interface CatalogueProduct {
  sku: string;
  name: string;
  description: string;
  brand: string;
  priceCents: number;
  attributes: { name: string; value: string }[];
  dimensions: { height: number; width: number; length: number; weight: number };
  ean: string;
}

const PRODUCT_TYPES = [
  {
    code: "CAM",
    name: "Camiseta Básica Algodão",
    brand: "Malha Brasil",
    price: 4990,
    attr: "Tamanho",
    values: ["P", "M", "G", "GG"],
    dims: [3, 25, 30, 0.2],
  },
  {
    code: "TEN",
    name: "Tênis Corrida Leve",
    brand: "Passo Certo",
    price: 29990,
    attr: "Número",
    values: ["38", "40", "42"],
    dims: [12, 20, 32, 0.9],
  },
  {
    code: "CAF",
    name: "Cafeteira Elétrica 15 Xícaras",
    brand: "Casa Prática",
    price: 15990,
    attr: "Voltagem",
    values: ["110V", "220V"],
    dims: [30, 20, 25, 1.8],
  },
  {
    code: "FON",
    name: "Fone de Ouvido Bluetooth",
    brand: "Som Livre",
    price: 12990,
    attr: "Cor",
    values: ["Preto", "Branco", "Azul"],
    dims: [6, 10, 18, 0.25],
  },
  {
    code: "MOC",
    name: "Mochila Executiva 20L",
    brand: "Viagem Boa",
    price: 18990,
    attr: "Cor",
    values: ["Preta", "Cinza"],
    dims: [45, 30, 15, 0.8],
  },
  {
    code: "LIV",
    name: "Livro de Receitas Brasileiras",
    brand: "Editora Sabor",
    price: 6990,
    attr: "Capa",
    values: ["Dura", "Brochura"],
    dims: [3, 18, 25, 0.6],
  },
  {
    code: "PAN",
    name: "Jogo de Panelas Antiaderente 5 Peças",
    brand: "Cozinha Feliz",
    price: 34990,
    attr: "Cor",
    values: ["Vermelho", "Grafite"],
    dims: [25, 35, 45, 4.5],
  },
  {
    code: "GAR",
    name: "Garrafa Térmica 1L",
    brand: "Mate Frio",
    price: 8990,
    attr: "Cor",
    values: ["Verde", "Inox"],
    dims: [32, 10, 10, 0.5],
  },
] as const;

export function buildCatalogue(random: SeededRandom): CatalogueProduct[] {
  const products: CatalogueProduct[] = [];
  for (const type of PRODUCT_TYPES) {
    type.values.forEach((value, index) => {
      const [height, width, length, weight] = type.dims;
      const base = `789${random.digits(9)}`;
      products.push({
        sku: `${type.code}-${String(index + 1).padStart(3, "0")}`,
        name: `${type.name} ${value}`,
        description: `${type.name}, ${type.attr.toLowerCase()} ${value}. Produto novo com nota fiscal e garantia de 90 dias.`,
        brand: type.brand,
        priceCents: type.price,
        attributes: [{ name: type.attr, value }],
        dimensions: { height, width, length, weight },
        ean: base + gs1CheckDigit(base),
      });
    });
  }
  return products;
}

function gs1CheckDigit(body: string): string {
  let sum = 0;
  for (let i = body.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(body[i]) * weight;
  return String((10 - (sum % 10)) % 10);
}

/** A product's picture, served by the sandbox itself (sandbox/assets.ts). */
export function productImageUrl(assetBase: string, sku: string): string {
  return `${assetBase}/_assets/products/${encodeURIComponent(sku.toLowerCase())}.svg`;
}

/** The part of `OrderPools` (orders.ts) that seeding SKUs reads, so this module needs no import from there. */
interface CataloguePools {
  catalogue: readonly CatalogueProduct[];
  assetBase: string;
  catalogueCreatedAt: number;
}

/** The catalogue as SKUs (with list and sell prices) for each PRO seller, so prices work at once. */
export function seedCatalogue(store: SandboxStore, userId: string, pools: CataloguePools, seed: number): void {
  const random = new SeededRandom(seed);
  const newId = createObjectIdFactory(random);
  const createdAt = pools.catalogueCreatedAt;
  for (const product of pools.catalogue) {
    const data: SkuCreate = {
      code: product.sku,
      title: { pt_BR: product.name },
      variation_key: "",
      condition: "new",
      brand: product.brand,
      tags: [],
      available: true,
      origin: "national",
      datasheet: {},
      dimensions: [
        {
          name: "package",
          height: { value: product.dimensions.height, unit: "cm" },
          width: { value: product.dimensions.width, unit: "cm" },
          length: { value: product.dimensions.length, unit: "cm" },
          weight: { value: product.dimensions.weight, unit: "kg" },
        },
      ],
      description: { pt_BR: { verbose_value: product.description, simplified_value: product.name } },
      identifiers: [{ type: "EAN", value: product.ean }],
      attributes: { variant: product.attributes },
      medias: [{ name: "Foto principal", type: "image", reference: productImageUrl(pools.assetBase, product.sku) }],
      extras: {},
    };
    store.addSku({ id: newId(createdAt), userId, code: product.sku, data, fingerprint: canonicalJson(data), createdAt: iso(createdAt) });
    const prices = store.sellerPrices(userId);
    for (const [type, value] of [
      ["list", Math.round(product.priceCents * 1.2)],
      ["sell", product.priceCents],
    ] as const) {
      const record = {
        id: newId(createdAt),
        userId,
        sku: product.sku,
        type,
        value,
        currency: "BRL",
        normalizer: 100,
        extras: {},
        created_at: iso(createdAt),
        history: [{ value, currency: "BRL", normalizer: 100, created_at: iso(createdAt) }],
      };
      prices.items.push(record);
      store.priceById.set(record.id, record);
    }
    prices.version++;
  }
}
