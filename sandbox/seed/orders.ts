// Order generation: the shared pools orders draw from, one order with its customer, items,
// amounts, deliveries and timeline, and a seller's seeded order history.
import type { Delivery, DeliveryItem, DeliveryStatus, Order, OrderStatus, Phone } from "@marketplace/api/schemas/order";
import { createObjectIdFactory, SeededRandom } from "../random";
import type { SandboxStore } from "../store";
import { buildCatalogue, type CatalogueProduct, productImageUrl } from "./catalogue";
import { generateCnpj, generateCpf } from "./documents";
import {
  type Agency,
  buildAgencies,
  CITIES,
  COMPANY_SUFFIXES,
  COMPANY_WORDS,
  COMPLEMENTS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  REFERENCES,
  STREETS,
  stripAccents,
  SURNAMES,
} from "./people-and-places";
import { type OrderSteps, type OrderTimeline, planShopOrders } from "./rhythm";
import { DAY, iso, MINUTE } from "./time";

/**
 * How a delivery arranged by the seller is told from one of the platform's delivery service: the
 * spec names both kinds only through their notifications (`order.delivery` for the platform's
 * service, `order.shipping` "shipments to be arranged"), so the sandbox marks the seller's with
 * `shipping.pickup_details.method` (sandbox choice; the platform's are "dropoff").
 */
export const SELLER_ARRANGED_METHOD = "seller";

/** Whether the seller arranges this delivery (`order.shipping`: created → shipped → delivered). */
export function isArrangedBySeller(delivery: Pick<Delivery, "shipping">): boolean {
  return delivery.shipping.pickup_details.method === SELLER_ARRANGED_METHOD;
}

/**
 * A seller-arranged delivery's status for the stage an order's platform deliveries are drawn at:
 * not yet shipped until the parcel is on its way (posted → shipped), then delivered.
 */
function sellerArrangedStatus(stage: DeliveryStatus): string {
  return stage === "delivered" ? "delivered" : stage === "posted" ? "shipped" : "created";
}

/** Shared, never-mutated pools; orders reference them so 100,000 orders stay small in memory. */
export interface OrderPools {
  catalogue: CatalogueProduct[];
  itemInfos: Map<string, DeliveryItem["info"]>;
  /** Origin of the assets the sandbox serves itself (sandbox/assets.ts), so links work offline. */
  assetBase: string;
  agencies: Agency[];
  /** When the sellers' catalogue was created: long before the first seeded order. */
  catalogueCreatedAt: number;
}

/** `baseTime`: the seed's base (seed/time.ts); the catalogue dates from 400 days before it. */
export function createOrderPools(seed: number, assetBase: string, baseTime: number): OrderPools {
  const random = new SeededRandom(seed ^ 0x51ed);
  const catalogue = buildCatalogue(random);
  const itemInfos = new Map<string, DeliveryItem["info"]>();
  const newId = createObjectIdFactory(random);
  const catalogueCreatedAt = baseTime - 400 * DAY;
  for (const product of catalogue) {
    itemInfos.set(product.sku, {
      sku: product.sku,
      id: newId(catalogueCreatedAt),
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
  const agencies = buildAgencies(random);
  return { catalogue, itemInfos, agencies, assetBase, catalogueCreatedAt };
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
 * The steps of an order of a given status, drawn (orders the control API creates, the extra
 * sellers' seeded orders): each as long after the previous one as is plausible, bounded by `now`.
 */
function drawSteps(
  random: SeededRandom,
  createdAt: number,
  status: OrderStatus,
  now: number,
): Omit<OrderSteps, "handlingDays" | "handlingLimitAt"> {
  const approvedAt =
    status === "approved" || status === "finished" || (status === "cancelled" && random.chance(0.5))
      ? Math.min(now, createdAt + random.int(5, 120) * MINUTE)
      : null;
  const deliveryStatus: DeliveryStatus =
    status === "finished" ? "delivered" : status === "approved" ? random.pick(["created", "received", "posted"] as const) : "created";
  const labelRequestedAt = Math.min(now, (approvedAt ?? createdAt) + random.int(10, 90) * MINUTE);
  const labelGeneratedAt = Math.min(now, labelRequestedAt + random.int(1, 10) * MINUTE);
  const postedAt =
    deliveryStatus === "posted" || deliveryStatus === "delivered"
      ? Math.min(now, labelGeneratedAt + random.int(4, 48) * 60 * MINUTE)
      : null;
  const deliveredAt = deliveryStatus === "delivered" && postedAt !== null ? Math.min(now, postedAt + random.int(1, 9) * DAY) : null;
  const cancelledAt = status === "cancelled" ? Math.min(now, (approvedAt ?? createdAt) + random.int(10, 600) * MINUTE) : null;
  return { approvedAt, deliveryStatus, labelRequestedAt, labelGeneratedAt, postedAt, deliveredAt, cancelledAt };
}

/**
 * Builds one order. `now` bounds every timestamp (seeded orders use the seed base time, orders
 * created through the control API use the sandbox clock).
 */
export function generateOrder(
  random: SeededRandom,
  newId: (timeMs: number) => string,
  pools: OrderPools,
  timeline: OrderTimeline,
  now: number,
): Order {
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

  // Timeline of the order: as the shop's rhythm planned it (seed/rhythm.ts), or drawn from its status.
  const purchasedAt = createdAt - random.int(5, 180) * 1000;
  const { approvedAt, deliveryStatus, labelRequestedAt, labelGeneratedAt, postedAt, deliveredAt, cancelledAt } =
    timeline.steps ?? drawSteps(random, createdAt, status, now);
  const updatedAt = Math.max(createdAt, approvedAt ?? 0, postedAt ?? 0, deliveredAt ?? 0, cancelledAt ?? 0);

  const splitDeliveries = items.length === 3 && random.chance(0.25);
  const groups = splitDeliveries ? [items.slice(0, 2), items.slice(2)] : [items];
  const agency = random.pick(pools.agencies);
  // Drawn even when the rhythm planned the handling time, so that the draws after it stay in place.
  const drawnHandlingDays = random.int(1, 3);
  const handlingDays = timeline.steps?.handlingDays ?? drawnHandlingDays;
  const handlingLimitAt = timeline.steps?.handlingLimitAt ?? createdAt + handlingDays * DAY;
  const deadlineDays = random.int(5, 15);
  const deliveries: Delivery[] = groups.map((groupItems) => {
    const id = newId(createdAt);
    const tracking = `${random.pick(["AA", "OB", "PN", "QB"])}${random.digits(9)}BR`;
    const labelId = random.hex(12);
    // About one delivery in five (3/16) is arranged by the seller, read off a value already drawn:
    // an extra draw would shift every record after it, and the seeded data would change.
    const bySeller = Number.parseInt(labelId.charAt(0), 16) < 3;
    return {
      id,
      status: bySeller ? sellerArrangedStatus(deliveryStatus) : deliveryStatus,
      items: groupItems,
      shipping: {
        posting_date: postedAt === null ? null : iso(postedAt),
        delivery_date: deliveredAt === null ? null : iso(deliveredAt),
        labels: {
          requested_at: iso(labelRequestedAt),
          generated_at: iso(labelGeneratedAt),
          url: `${pools.assetBase}/_assets/labels/${id}`,
        },
        tracking: { number: tracking, label_id: labelId, url: `${pools.assetBase}/_assets/tracking/${tracking}` },
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
          method: bySeller ? SELLER_ARRANGED_METHOD : "dropoff",
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
        handling_time: { value: handlingDays, precision: "days", workday: true, limit_date: iso(handlingLimitAt) },
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

/**
 * Seeds `count` orders for a seller, spread evenly (with jitter) over the year before the base
 * time, with statuses drawn regardless of age: the extra sellers of scale tests, whose orders are
 * only many.
 */
export function seedOrdersFor(store: SandboxStore, userId: string, count: number, seed: number, pools: OrderPools, base: number): void {
  const random = new SeededRandom(seed);
  const span = 365 * DAY;
  const step = count > 0 ? span / count : 0;
  const newId = createObjectIdFactory(random);
  const orders = store.sellerOrders(userId);
  for (let i = 0; i < count; i++) {
    const createdAt = Math.floor(base - span + i * step + random.next() * step * 0.9);
    const order = generateOrder(random, newId, pools, { createdAt, status: pickStatus(random) }, base);
    orders.items.push(order);
    store.orderById.set(order.id, { order, userId });
  }
  orders.version++;
}

/** Seeds a demo shop's `count` orders with the daily rhythm of seed/rhythm.ts, up to the base time. */
export function seedShopOrdersFor(store: SandboxStore, userId: string, count: number, seed: number, pools: OrderPools, base: number): void {
  const random = new SeededRandom(seed);
  const timelines = planShopOrders(count, base, random);
  const newId = createObjectIdFactory(random);
  const orders = store.sellerOrders(userId);
  for (const timeline of timelines) {
    const order = generateOrder(random, newId, pools, timeline, base);
    orders.items.push(order);
    store.orderById.set(order.id, { order, userId });
  }
  orders.version++;
}
