// A shop with a million mirrored orders among ten thousand shops: what bench:search and bench:sales
// measure on (issue 42). Seeded in SQL; 1,000 customers get real keyed e-mail and document hashes.
import { parseArgs } from "node:util";
import type { Client } from "pg";

export const BIG = "shop-1";
/** Customers given real search keys (keyed hashes are computed here, not in SQL). */
export const KEYED = 1_000;

const FIRST = ["João", "José", "Maria", "Ana", "Antônio", "Francisco", "Luíza", "Márcia", "Sérgio", "Patrícia", "Lúcia", "Cláudio"];
const FIRST_MORE = ["Pedro", "Paulo", "Lucas", "Júlia", "Letícia", "Vinícius", "Fábio", "Débora", "Mônica", "Rafael", "Bruna", "Caio"];
const SURNAMES = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Lima",
  "Pereira",
  "Conceição",
  "Araújo",
  "Gonçalves",
  "Ribeiro",
  "Gomes",
  "Brandão",
];
const SURNAMES_MORE = [
  "Melo",
  "Barbosa",
  "Cardoso",
  "Teixeira",
  "Rocha",
  "Dias",
  "Nascimento",
  "Andrade",
  "Moreira",
  "Nunes",
  "Simões",
  "Falcão",
];
export const NOUNS = ["Camiseta", "Caneca", "Almofada", "Toalha", "Luminária", "Garrafa", "Mochila", "Relógio", "Chinelo", "Boné"];
export const QUALITIES = ["Básica", "Térmica", "Decorativa", "Algodão", "Cerâmica", "Estampada", "Inox", "Bordada", "Clássica", "Macia"];
const COLOURS = ["Azul", "Vermelha", "Preta", "Branca", "Verde", "Amarela", "Cinza", "Lilás", "Marrom", "Rosa"];

export const firstNames = [...FIRST, ...FIRST_MORE];
export const surnames = [...SURNAMES, ...SURNAMES_MORE];
export const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
export const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const sqlArray = (items: readonly string[]) => `ARRAY[${items.map((item) => `'${item}'`).join(",")}]`;
export const cpfOf = (n: number) => String(10_000_000_000 + n * 7).slice(-11);
export const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

export interface BigShopSize {
  orders: number;
  shops: number;
}

/** `-- --orders N --shops N --runs N`, as bench:search and bench:sales take them. */
export function bigShopArgs(defaultRuns: number): BigShopSize & { runs: number } {
  const { values } = parseArgs({
    options: {
      orders: { type: "string", default: "1000000" },
      shops: { type: "string", default: "10000" },
      runs: { type: "string", default: String(defaultRuns) },
    },
  });
  return { orders: Number(values.orders), shops: Number(values.shops), runs: Number(values.runs) };
}

/** Above every order number the seed gives (its ids are these numbers in hex): where new orders start. */
export const firstUnseededOrder = ({ orders, shops }: BigShopSize) => orders + shops * 10 + 1;

export async function seedBigShop(db: Client, { orders: ORDERS, shops: SHOPS }: BigShopSize) {
  let started = performance.now();
  await db.query(
    `INSERT INTO "Seller" ("id", "email", "name", "updatedAt") SELECT 'shop-' || n, 'shop' || n || '@bench.example', 'Loja ' || n, now() FROM generate_series(1, $1::int) n`,
    [SHOPS],
  );
  // The big shop's orders, then ten for each other shop. Names: first name, two surnames; tracking
  // codes like the sandbox's; a reference per order; a year of dates.
  const orders = (shop: string, from: number, count: number) => `
    INSERT INTO "OrderMirror" ("sellerId", "orderId", "status", "createdAt", "updatedAt", "customerName", "total", "currency",
                               "normalizer", "itemCount", "deliveries", "syncedAt", "trackingNumbers", "customerKeys", "state", "net", "commission", "items")
    SELECT ${shop}, lpad(to_hex(n), 24, '0'), (ARRAY['new','approved','finished','cancelled'])[1 + n % 4],
           now() - (n % 365) * interval '1 day' - ((n::bigint * 7919) % 86400) * interval '1 second', now(), f[1 + n % array_length(f, 1)] || ' ' || s[1 + (n / 7) % array_length(s, 1)] || ' ' || s[1 + (n / 173) % array_length(s, 1)],
           1000 + (n * 37) % 90000, 'BRL', 100, 1, '[]', now(),
           (ARRAY['AA','OB','PN','QB'])[1 + n % 4] || lpad(((n::bigint * 7919) % 1000000000)::text, 9, '0') || 'BR',
           ARRAY[md5('e' || n), md5('d' || n)], (ARRAY['SP','RJ','MG','BA','PR','RS','PE','CE'])[1 + n % 8],
           ((1000 + (n * 37) % 90000) * 82) / 100, ((1000 + (n * 37) % 90000) * 12) / 100,
           jsonb_build_array(jsonb_build_object('sku', 'SKU-' || lpad((n % 5000)::text, 5, '0'), 'name', 'Produto ' || (n % 5000),
                                                'quantity', 1 + n % 3, 'revenue', 1000 + (n * 37) % 90000))
    FROM generate_series(${from}, ${from + count - 1}) n, (SELECT ${sqlArray(firstNames)} AS f, ${sqlArray(surnames)} AS s) names`;
  await db.query(orders(`'${BIG}'`, 1, ORDERS));
  await db.query(
    `INSERT INTO "OrderReference" ("sellerId", "orderId", "number") SELECT "sellerId", "orderId", 1000 + row_number() OVER (ORDER BY "orderId") FROM "OrderMirror" WHERE "sellerId" = '${BIG}'`,
  );
  console.log(`[seed] ${ORDERS.toLocaleString("en")} orders in ${BIG} with their references: ${seconds(started)} s`);
  started = performance.now();
  for (let shop = 2; shop <= SHOPS; shop += 1_000) {
    const last = Math.min(SHOPS, shop + 999);
    await db.query(`${orders(`'shop-' || (2 + (n - ${ORDERS + 1}) / 10)`, ORDERS + 1 + (shop - 2) * 10, (last - shop + 1) * 10)}`);
  }
  console.log(`[seed] ${((SHOPS - 1) * 10).toLocaleString("en")} orders in the other ${SHOPS - 1} shops: ${seconds(started)} s`);
  await db.query(
    `INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
     SELECT '${BIG}', 'SKU-' || lpad(n::text, 5, '0'),
            (${sqlArray(NOUNS)})[1 + n % 10] || ' ' || (${sqlArray(QUALITIES)})[1 + (n / 10) % 10] || ' ' || (${sqlArray(COLOURS)})[1 + (n / 100) % 10] || ' ' || n,
            'order', now()
     FROM generate_series(1, 5000) n`,
  );
  // Real keys for some customers, as the mirror writes them.
  const { customerKeysOf } = await import("@/lib/search/customer-keys.server");
  const keyed = Array.from({ length: KEYED }, (_, index) => {
    const n = 1 + index * Math.floor(ORDERS / KEYED);
    return {
      orderId: n.toString(16).padStart(24, "0"),
      keys: customerKeysOf({ email: `cliente${n}@example.com`, document_number: cpfOf(n) }),
    };
  });
  await db.query(
    `UPDATE "OrderMirror" m SET "customerKeys" = k."keys" FROM json_to_recordset($1::json) AS k("orderId" text, "keys" text[])
     WHERE m."sellerId" = '${BIG}' AND m."orderId" = k."orderId"`,
    [JSON.stringify(keyed)],
  );
  started = performance.now();
  await db.query(`VACUUM ANALYZE "OrderMirror", "OrderReference", "ProductName", "Seller", "SalesRollup"`);
  console.log(`[seed] VACUUM ANALYZE: ${seconds(started)} s`);
}
