// Deterministic seed data: integrator apps, users, a small SKU catalogue with prices and orders
// with realistic Brazilian data. The same SANDBOX_SEED always yields the same records; seeded
// timestamps derive from a fixed base time, not from the wall clock.
import type { Delivery, DeliveryItem, DeliveryStatus, Order, OrderStatus, Phone } from "@/lib/marketplace/schemas/order";
import type { SkuCreate } from "@/lib/marketplace/schemas/sku";
import type { SandboxConfig } from "./config";
import { createObjectIdFactory, SeededRandom } from "./random";
import { canonicalJson, type SandboxStore } from "./store";

/** Seeded orders are spread over the year before this instant. */
export const SEED_BASE_TIME = Date.parse("2026-11-01T12:00:00.000Z");
const DAY = 86_400_000;
const MINUTE = 60_000;

export const DEFAULT_REDIRECT_URI = "http://localhost:3000/api/auth/callback/marketplace";
export const DEMO_PASSWORD = "demo1234";

export const SEED_USER_IDS = {
  seller: "650000000000000000000001",
  seller2: "650000000000000000000002",
  free: "650000000000000000000003",
} as const;

export function seedApps(store: SandboxStore, config: SandboxConfig): void {
  store.apps.set("demo-integrator", {
    clientId: "demo-integrator",
    clientSecret: "demo-secret",
    name: "Demo Integrator",
    type: "marketplace",
    redirectUris: [...new Set([DEFAULT_REDIRECT_URI, ...config.extraRedirectUris])],
    mayUseAuthorizationCode: true,
  });
  store.apps.set("multi-integrator", {
    clientId: "multi-integrator",
    clientSecret: "multi-secret",
    name: "Multi Redirect Integrator",
    type: "marketplace",
    redirectUris: ["http://localhost:3000/cb1", "http://localhost:3000/cb2"],
    mayUseAuthorizationCode: true,
  });
  store.apps.set("autos-integrator", {
    clientId: "autos-integrator",
    clientSecret: "autos-secret",
    name: "Autos Integrator",
    type: "autos",
    redirectUris: [DEFAULT_REDIRECT_URI],
    mayUseAuthorizationCode: true,
  });
  // Reproduces `unauthorized_client` (authorization request and token exchange): a registered,
  // authenticated integrator that may not use the authorization code grant.
  store.apps.set("restricted-integrator", {
    clientId: "restricted-integrator",
    clientSecret: "restricted-secret",
    name: "Restricted Integrator",
    type: "marketplace",
    redirectUris: [DEFAULT_REDIRECT_URI],
    mayUseAuthorizationCode: false,
  });
}

export function seedUsers(store: SandboxStore): void {
  store.addUser({ id: SEED_USER_IDS.seller, email: "seller@example.com", password: DEMO_PASSWORD, name: "Loja Demo", pro: true });
  store.addUser({ id: SEED_USER_IDS.seller2, email: "seller2@example.com", password: DEMO_PASSWORD, name: "Loja Dois", pro: true });
  store.addUser({ id: SEED_USER_IDS.free, email: "free@example.com", password: DEMO_PASSWORD, name: "Usuário Free", pro: false });
}

// ---------------------------------------------------------------------------------------------
// Brazilian documents

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits[i] ?? 0) * (weights[i] ?? 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function generateCpf(random: SeededRandom): string {
  const digits = Array.from({ length: 9 }, () => random.int(0, 9));
  if (digits.every((digit) => digit === digits[0])) digits[8] = ((digits[8] ?? 0) + 1) % 10;
  digits.push(checkDigit(digits, CPF_WEIGHTS_1));
  digits.push(checkDigit(digits, CPF_WEIGHTS_2));
  return digits.join("");
}

export function generateCnpj(random: SeededRandom): string {
  const digits = [...Array.from({ length: 8 }, () => random.int(0, 9)), 0, 0, 0, 1];
  digits.push(checkDigit(digits, CNPJ_WEIGHTS_1));
  digits.push(checkDigit(digits, CNPJ_WEIGHTS_2));
  return digits.join("");
}

export function isValidCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  const digits = [...value].map(Number);
  return checkDigit(digits, CPF_WEIGHTS_1) === digits[9] && checkDigit(digits, CPF_WEIGHTS_2) === digits[10];
}

export function isValidCnpj(value: string): boolean {
  if (!/^\d{14}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  return checkDigit(digits, CNPJ_WEIGHTS_1) === digits[12] && checkDigit(digits, CNPJ_WEIGHTS_2) === digits[13];
}

// ---------------------------------------------------------------------------------------------
// Pools of realistic data

const FIRST_NAMES = [
  "Ana", "João", "Maria", "José", "Francisca", "Antônio", "Adriana", "Carlos", "Juliana", "Paulo",
  "Márcia", "Pedro", "Fernanda", "Lucas", "Patrícia", "Marcos", "Aline", "Luiz", "Sandra", "Gabriel",
  "Camila", "Rafael", "Beatriz", "Daniel", "Letícia", "Bruno", "Larissa", "Eduardo", "Vanessa", "Felipe",
  "Tatiane", "Rodrigo", "Jéssica", "Gustavo", "Renata", "Thiago", "Bianca", "Mateus", "Cláudia", "Vinícius",
];
const SURNAMES = [
  "Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
  "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa",
  "Rocha", "Dias", "Nascimento", "Andrade", "Moreira", "Nunes", "Marques", "Machado", "Mendes", "Freitas",
  "Cardoso", "Ramos", "Gonçalves", "Santana", "Teixeira", "Araújo", "Pinto", "Correia", "Moura", "Cavalcanti",
];
const COMPANY_WORDS = ["Comercial", "Distribuidora", "Mercadinho", "Papelaria", "Empório", "Atacadão", "Casa", "Oficina"];
const COMPANY_SUFFIXES = ["Ltda", "ME", "EIRELI", "S.A."];
const EMAIL_DOMAINS = ["example.com", "example.com.br", "example.net", "example.org"];

interface City {
  name: string;
  state: string;
  ddd: string;
  zipPrefix: string;
  districts: readonly string[];
  latitude: number;
  longitude: number;
}

const CITIES: readonly City[] = [
  { name: "São Paulo", state: "SP", ddd: "11", zipPrefix: "01", districts: ["Bela Vista", "Pinheiros", "Mooca", "Santana", "Vila Mariana"], latitude: -23.5505, longitude: -46.6333 },
  { name: "Campinas", state: "SP", ddd: "19", zipPrefix: "13", districts: ["Cambuí", "Taquaral", "Barão Geraldo"], latitude: -22.9099, longitude: -47.0626 },
  { name: "Rio de Janeiro", state: "RJ", ddd: "21", zipPrefix: "20", districts: ["Copacabana", "Tijuca", "Botafogo", "Méier"], latitude: -22.9068, longitude: -43.1729 },
  { name: "Niterói", state: "RJ", ddd: "21", zipPrefix: "24", districts: ["Icaraí", "Centro", "Santa Rosa"], latitude: -22.8832, longitude: -43.1034 },
  { name: "Belo Horizonte", state: "MG", ddd: "31", zipPrefix: "30", districts: ["Savassi", "Funcionários", "Pampulha"], latitude: -19.9167, longitude: -43.9345 },
  { name: "Curitiba", state: "PR", ddd: "41", zipPrefix: "80", districts: ["Batel", "Água Verde", "Centro Cívico"], latitude: -25.4284, longitude: -49.2733 },
  { name: "Porto Alegre", state: "RS", ddd: "51", zipPrefix: "90", districts: ["Moinhos de Vento", "Menino Deus", "Cidade Baixa"], latitude: -30.0346, longitude: -51.2177 },
  { name: "Florianópolis", state: "SC", ddd: "48", zipPrefix: "88", districts: ["Trindade", "Centro", "Lagoa da Conceição"], latitude: -27.5954, longitude: -48.548 },
  { name: "Salvador", state: "BA", ddd: "71", zipPrefix: "40", districts: ["Barra", "Pituba", "Rio Vermelho"], latitude: -12.9714, longitude: -38.5014 },
  { name: "Recife", state: "PE", ddd: "81", zipPrefix: "50", districts: ["Boa Viagem", "Casa Forte", "Graças"], latitude: -8.0476, longitude: -34.877 },
  { name: "Fortaleza", state: "CE", ddd: "85", zipPrefix: "60", districts: ["Aldeota", "Meireles", "Benfica"], latitude: -3.7319, longitude: -38.5267 },
  { name: "Brasília", state: "DF", ddd: "61", zipPrefix: "70", districts: ["Asa Sul", "Asa Norte", "Lago Sul"], latitude: -15.7939, longitude: -47.8828 },
  { name: "Goiânia", state: "GO", ddd: "62", zipPrefix: "74", districts: ["Setor Bueno", "Setor Oeste", "Setor Marista"], latitude: -16.6869, longitude: -49.2648 },
  { name: "Manaus", state: "AM", ddd: "92", zipPrefix: "69", districts: ["Adrianópolis", "Centro", "Ponta Negra"], latitude: -3.119, longitude: -60.0217 },
  { name: "Belém", state: "PA", ddd: "91", zipPrefix: "66", districts: ["Nazaré", "Umarizal", "Batista Campos"], latitude: -1.4558, longitude: -48.4902 },
];
const STREETS = [
  "Rua das Flores", "Avenida Paulista", "Rua XV de Novembro", "Avenida Brasil", "Rua Sete de Setembro",
  "Rua Tiradentes", "Avenida Getúlio Vargas", "Rua Dom Pedro II", "Rua São José", "Avenida Rio Branco",
  "Rua Marechal Deodoro", "Rua Bahia", "Alameda Santos", "Rua Augusta", "Avenida Atlântica",
];
const COMPLEMENTS = ["", "", "Apto 12", "Apto 304", "Casa 2", "Bloco B", "Sala 5", "Fundos"];
const REFERENCES = ["", "", "Próximo à padaria", "Em frente à praça", "Portão azul", "Ao lado do mercado"];

interface Agency {
  agency_id: string;
  agency_company: string;
  company_name: string;
  email: string;
  phone: string;
  city: City;
  street: string;
  number: string;
  district: string;
  postal_code: string;
}

interface CatalogueProduct {
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
  { code: "CAM", name: "Camiseta Básica Algodão", brand: "Malha Brasil", price: 4990, attr: "Tamanho", values: ["P", "M", "G", "GG"], dims: [3, 25, 30, 0.2] },
  { code: "TEN", name: "Tênis Corrida Leve", brand: "Passo Certo", price: 29990, attr: "Número", values: ["38", "40", "42"], dims: [12, 20, 32, 0.9] },
  { code: "CAF", name: "Cafeteira Elétrica 15 Xícaras", brand: "Casa Prática", price: 15990, attr: "Voltagem", values: ["110V", "220V"], dims: [30, 20, 25, 1.8] },
  { code: "FON", name: "Fone de Ouvido Bluetooth", brand: "Som Livre", price: 12990, attr: "Cor", values: ["Preto", "Branco", "Azul"], dims: [6, 10, 18, 0.25] },
  { code: "MOC", name: "Mochila Executiva 20L", brand: "Viagem Boa", price: 18990, attr: "Cor", values: ["Preta", "Cinza"], dims: [45, 30, 15, 0.8] },
  { code: "LIV", name: "Livro de Receitas Brasileiras", brand: "Editora Sabor", price: 6990, attr: "Capa", values: ["Dura", "Brochura"], dims: [3, 18, 25, 0.6] },
  { code: "PAN", name: "Jogo de Panelas Antiaderente 5 Peças", brand: "Cozinha Feliz", price: 34990, attr: "Cor", values: ["Vermelho", "Grafite"], dims: [25, 35, 45, 4.5] },
  { code: "GAR", name: "Garrafa Térmica 1L", brand: "Mate Frio", price: 8990, attr: "Cor", values: ["Verde", "Inox"], dims: [32, 10, 10, 0.5] },
] as const;

function buildCatalogue(random: SeededRandom): CatalogueProduct[] {
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

function stripAccents(value: string): string {
  return value.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

// ---------------------------------------------------------------------------------------------
// Order generation

/** Shared, never-mutated pools; orders reference them so 100,000 orders stay small in memory. */
export interface OrderPools {
  catalogue: CatalogueProduct[];
  itemInfos: Map<string, DeliveryItem["info"]>;
  /** Origin of the assets the sandbox serves itself (sandbox/assets.ts), so links work offline. */
  assetBase: string;
  agencies: Agency[];
}

/** A product's picture, served by the sandbox itself (sandbox/assets.ts). */
export function productImageUrl(assetBase: string, sku: string): string {
  return `${assetBase}/_assets/products/${encodeURIComponent(sku.toLowerCase())}.svg`;
}

export function createOrderPools(seed: number, assetBase: string): OrderPools {
  const random = new SeededRandom(seed ^ 0x51ed);
  const catalogue = buildCatalogue(random);
  const itemInfos = new Map<string, DeliveryItem["info"]>();
  const newId = createObjectIdFactory(random);
  for (const product of catalogue) {
    itemInfos.set(product.sku, {
      sku: product.sku,
      id: newId(SEED_BASE_TIME - 400 * DAY),
      name: product.name,
      description: product.description,
      images: [productImageUrl(assetBase, product.sku)],
      attributes: product.attributes,
      extras: {},
      dimensions: {
        height: { value: product.dimensions.height, unit: "cm" },
        width: { value: product.dimensions.width, unit: "cm" },
        length: { value: product.dimensions.length, unit: "cm" },
        weight: { value: product.dimensions.weight, unit: "kg" },
      },
    });
  }
  const agencies: Agency[] = CITIES.map((city, index) => ({
    agency_id: String(10000 + index * 37),
    agency_company: "Correios",
    company_name: `Agência ${city.name} Centro`,
    email: `agencia${index + 1}@correios.example`,
    phone: `${city.ddd}3${random.digits(7)}`,
    city,
    street: random.pick(STREETS),
    number: String(random.int(10, 2000)),
    district: random.pick(city.districts),
    postal_code: `${city.zipPrefix}${random.digits(3)}-${random.digits(3)}`,
  }));
  return { catalogue, itemInfos, agencies, assetBase };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function money(value: number) {
  return { currency: "BRL", normalizer: 100, value };
}

/** Splits `total` over `weights` proportionally; the last share takes the rounding remainder. */
function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares: number[] = [];
  let given = 0;
  weights.forEach((weight, index) => {
    const share = index === weights.length - 1 ? total - given : sum === 0 ? 0 : Math.floor((total * weight) / sum);
    shares.push(share);
    given += share;
  });
  return shares;
}

interface OrderTimeline {
  createdAt: number;
  status: OrderStatus;
}

const ORDER_STATUS_WEIGHTS: readonly [OrderStatus, number][] = [
  ["new", 0.15],
  ["approved", 0.35],
  ["finished", 0.4],
  ["cancelled", 0.1],
];

function pickStatus(random: SeededRandom): OrderStatus {
  let roll = random.next();
  for (const [status, weight] of ORDER_STATUS_WEIGHTS) {
    if (roll < weight) return status;
    roll -= weight;
  }
  return "finished";
}

/**
 * Builds one order. `now` bounds every timestamp (seeded orders use the seed base time, orders
 * created through the control API use the sandbox clock).
 */
export function generateOrder(random: SeededRandom, newId: (timeMs: number) => string, pools: OrderPools, timeline: OrderTimeline, now: number): Order {
  const { createdAt, status } = timeline;
  const city = random.pick(CITIES);
  const isCompany = random.chance(0.12);
  const first = random.pick(FIRST_NAMES);
  const surname = random.pick(SURNAMES);
  const name = isCompany
    ? `${random.pick(COMPANY_WORDS)} ${surname} ${random.pick(COMPANY_SUFFIXES)}`
    : random.chance(0.6)
      ? `${first} ${random.pick(SURNAMES)} ${surname}`
      : `${first} ${surname}`;
  const emailUser = stripAccents(isCompany ? `contato.${surname}` : `${first}.${surname}`).toLowerCase();
  const email = `${emailUser}${random.int(1, 999)}@${random.pick(EMAIL_DOMAINS)}`;
  const phones: Phone[] = [{ area_code: city.ddd, country_code: "55", number: `9${random.digits(8)}` }];
  const documentNumber = isCompany ? generateCnpj(random) : generateCpf(random);
  const birthYear = random.int(1950, 2005);
  const birthDate = `${birthYear}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`;
  const customer = {
    birth_date: birthDate,
    customer_type: isCompany ? ("cnpj" as const) : ("cpf" as const),
    document_number: documentNumber,
    email,
    name,
    phones,
  };
  const address = {
    zipcode: `${city.zipPrefix}${random.digits(3)}-${random.digits(3)}`,
    street: random.pick(STREETS),
    number: String(random.int(1, 3000)),
    district: random.pick(city.districts),
    city: city.name,
    state: city.state,
    country: "BR",
    complement: random.pick(COMPLEMENTS),
    reference: random.pick(REFERENCES),
  };

  // Items and amounts: amounts.total = Σ unit_price.value × quantity + freight.total − discount.total.
  const itemCount = random.chance(0.6) ? 1 : random.chance(0.6) ? 2 : 3;
  const lines = Array.from({ length: itemCount }, () => {
    const product = random.pick(pools.catalogue);
    return { product, quantity: random.chance(0.75) ? 1 : random.int(2, 3) };
  });
  const lineTotals = lines.map((line) => line.product.priceCents * line.quantity);
  const subtotal = lineTotals.reduce((a, b) => a + b, 0);
  const freightTotal = subtotal >= 19900 && random.chance(0.5) ? 0 : random.int(99, 499) * 10;
  const freightShared = freightTotal > 0 && random.chance(0.3) ? Math.floor(freightTotal / 2) : 0;
  const discountTotal = random.chance(0.3) ? Math.round((subtotal * random.int(5, 15)) / 100) : 0;
  const discountShared = discountTotal > 0 && random.chance(0.5) ? Math.floor(discountTotal / 2) : 0;
  const comissionTotal = Math.round((subtotal * random.int(12, 16)) / 100);
  const total = subtotal + freightTotal - discountTotal;
  const itemFreight = allocate(freightTotal, lineTotals);
  const itemFreightShared = allocate(freightShared, lineTotals);
  const itemDiscount = allocate(discountTotal, lineTotals);
  const itemDiscountShared = allocate(discountShared, lineTotals);
  const itemComission = allocate(comissionTotal, lineTotals);

  const items: DeliveryItem[] = lines.map((line, index) => {
    const info = pools.itemInfos.get(line.product.sku);
    if (!info) throw new Error(`catalogue item ${line.product.sku} missing`);
    const lineTotal = lineTotals[index] ?? 0;
    const freight = itemFreight[index] ?? 0;
    const discount = itemDiscount[index] ?? 0;
    return {
      sequencial: index + 1,
      amounts: {
        currency: "BRL",
        normalizer: 100,
        total: lineTotal + freight - discount,
        discount: { currency: "BRL", normalizer: 100, total: discount, shared: itemDiscountShared[index] ?? 0 },
        freight: { currency: "BRL", normalizer: 100, total: freight, shared: itemFreightShared[index] ?? 0 },
        comission: { currency: "BRL", normalizer: 100, type: "value", value: itemComission[index] ?? 0 },
      },
      info,
      unit_price: money(line.product.priceCents),
      measure_unit: "PC",
      quantity: line.quantity,
    };
  });

  // Timeline of the order.
  const purchasedAt = createdAt - random.int(5, 180) * 1000;
  const approvedAt =
    status === "approved" || status === "finished" || (status === "cancelled" && random.chance(0.5))
      ? Math.min(now, createdAt + random.int(5, 120) * MINUTE)
      : null;
  const deliveryStatus: DeliveryStatus =
    status === "finished" ? "delivered" : status === "approved" ? random.pick(["created", "received", "posted"] as const) : "created";
  const labelRequestedAt = Math.min(now, (approvedAt ?? createdAt) + random.int(10, 90) * MINUTE);
  const labelGeneratedAt = Math.min(now, labelRequestedAt + random.int(1, 10) * MINUTE);
  const postedAt =
    deliveryStatus === "posted" || deliveryStatus === "delivered" ? Math.min(now, labelGeneratedAt + random.int(4, 48) * 60 * MINUTE) : null;
  const deliveredAt = deliveryStatus === "delivered" && postedAt !== null ? Math.min(now, postedAt + random.int(1, 9) * DAY) : null;
  const cancelledAt = status === "cancelled" ? Math.min(now, (approvedAt ?? createdAt) + random.int(10, 600) * MINUTE) : null;
  const updatedAt = Math.max(createdAt, approvedAt ?? 0, postedAt ?? 0, deliveredAt ?? 0, cancelledAt ?? 0);

  const splitDeliveries = items.length === 3 && random.chance(0.25);
  const groups = splitDeliveries ? [items.slice(0, 2), items.slice(2)] : [items];
  const agency = random.pick(pools.agencies);
  const handlingDays = random.int(1, 3);
  const deadlineDays = random.int(5, 15);
  const deliveries: Delivery[] = groups.map((groupItems) => {
    const id = newId(createdAt);
    const tracking = `${random.pick(["AA", "OB", "PN", "QB"])}${random.digits(9)}BR`;
    return {
      id,
      status: deliveryStatus,
      items: groupItems,
      shipping: {
        posting_date: postedAt === null ? null : iso(postedAt),
        delivery_date: deliveredAt === null ? null : iso(deliveredAt),
        labels: {
          requested_at: iso(labelRequestedAt),
          generated_at: iso(labelGeneratedAt),
          url: `${pools.assetBase}/_assets/labels/${id}`,
        },
        tracking: { number: tracking, label_id: random.hex(12), url: `${pools.assetBase}/_assets/tracking/${tracking}` },
        recipient: {
          customer_type: customer.customer_type,
          document_number: documentNumber,
          email,
          name,
          phones,
          address,
        },
        pickup_details: {
          agency_id: agency.agency_id,
          agency_company: agency.agency_company,
          method: "dropoff",
          id: agency.agency_id,
          company_name: agency.company_name,
          email: agency.email,
          postal_code: agency.postal_code,
          address: agency.street,
          number: agency.number,
          complement: "",
          district: agency.district,
          city: agency.city.name,
          state: agency.city.state,
          phone: agency.phone,
          latitude: agency.city.latitude,
          longitude: agency.city.longitude,
        },
        handling_time: { value: handlingDays, precision: "days", workday: true, limit_date: iso(createdAt + handlingDays * DAY) },
        deadline: { value: deadlineDays, precision: "days", workday: true, limit_date: iso(createdAt + deadlineDays * DAY) },
      },
    };
  });

  const method = random.pick(["credit_card", "credit_card", "pix", "boleto"] as const);
  const installments = method === "credit_card" ? random.pick([1, 1, 2, 3, 6, 10]) : 1;
  const description =
    method === "credit_card"
      ? `Cartão de crédito ${random.pick(["Visa", "Mastercard", "Elo"])} em ${installments}x`
      : method === "pix"
        ? "Pix"
        : "Boleto bancário";

  return {
    id: newId(createdAt),
    status,
    created_at: iso(createdAt),
    approved_at: approvedAt === null ? null : iso(approvedAt),
    purchased_at: iso(purchasedAt),
    updated_at: iso(updatedAt),
    customer,
    payments: [
      {
        gateway: { document: `PAY-${random.hex(16).toUpperCase()}` },
        description,
        installments,
        method,
        currency: "BRL",
        normalizer: 100,
        amount: total,
      },
    ],
    amounts: {
      currency: "BRL",
      normalizer: 100,
      total,
      discount: { currency: "BRL", normalizer: 100, total: discountTotal, shared: discountShared },
      freight: { currency: "BRL", normalizer: 100, total: freightTotal, shared: freightShared },
      comission: { currency: "BRL", normalizer: 100, type: "value", total: comissionTotal },
    },
    deliveries,
  };
}

/** Seeds `count` orders for a seller, spread evenly (with jitter) over the year before the base time. */
export function seedOrdersFor(store: SandboxStore, userId: string, count: number, seed: number, pools: OrderPools): void {
  const random = new SeededRandom(seed);
  const newId = createObjectIdFactory(random);
  const span = 365 * DAY;
  const step = count > 0 ? span / count : 0;
  const orders = store.sellerOrders(userId);
  for (let i = 0; i < count; i++) {
    const createdAt = Math.floor(SEED_BASE_TIME - span + i * step + random.next() * step * 0.9);
    const order = generateOrder(random, newId, pools, { createdAt, status: pickStatus(random) }, SEED_BASE_TIME);
    orders.items.push(order);
    store.orderById.set(order.id, { order, userId });
  }
  orders.version++;
}

/** The catalogue as SKUs (with list and sell prices) for each PRO seller, so prices work at once. */
function seedCatalogue(store: SandboxStore, userId: string, pools: OrderPools, seed: number): void {
  const random = new SeededRandom(seed);
  const newId = createObjectIdFactory(random);
  const createdAt = SEED_BASE_TIME - 400 * DAY;
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
    for (const [type, value] of [["list", Math.round(product.priceCents * 1.2)], ["sell", product.priceCents]] as const) {
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

export function seedStore(store: SandboxStore, config: SandboxConfig): OrderPools {
  seedApps(store, config);
  seedUsers(store);
  const pools = createOrderPools(config.seed, config.publicUrl);
  seedCatalogue(store, SEED_USER_IDS.seller, pools, config.seed + 11);
  seedCatalogue(store, SEED_USER_IDS.seller2, pools, config.seed + 12);
  seedOrdersFor(store, SEED_USER_IDS.seller, config.seedOrders, config.seed + 1, pools);
  seedOrdersFor(store, SEED_USER_IDS.seller2, Math.round(config.seedOrders / 4), config.seed + 2, pools);
  return pools;
}
