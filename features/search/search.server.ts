import "server-only";
import type { PersonShop } from "@/lib/people/people.server";
import { can } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { pool } from "@/lib/pg-pool.server";
import { customerKeyOfQuery } from "@/lib/search/customer-keys.server";
import { containing, searchText, wordPatterns } from "@/features/search/search-text";
import type { OrderMatch } from "@/features/search/found";

// One search across a person's shops (issue 42), from the dashboard's own tables, with what
// PostgreSQL offers: search_fold (unaccent, lower case) on both sides, trigram indexes for parts
// and typos (migration "search"). Each statement walks the person's shops one by one, so each
// index is entered by its shop (btree_gin), and each kind of result only in the shops whose role
// may see it: orders for everyone, e-mail and document only with customer data, products with
// prices or SKUs, people for those who manage the team. The statements are not prepared: which of
// their branches apply changes with each text, and a generic plan (the one PostgreSQL settles on
// after five runs of a prepared statement) cannot leave out the ones that do not; a comment names each.

export const RESULTS_PER_GROUP = { orders: 8, products: 6, people: 5 } as const;

export type { OrderMatch };

export interface OrderResult {
  shopId: string;
  orderId: string;
  reference: number | null;
  customerName: string;
  status: string;
  total: number;
  currency: string;
  normalizer: number;
  createdAt: Date;
  matched: OrderMatch;
}

export interface ProductResult {
  shopId: string;
  sku: string;
  name: string;
}

export interface PersonResult {
  shopId: string;
  personId: string;
  name: string;
  role: Role;
}

export interface SearchResults {
  orders: OrderResult[];
  products: ProductResult[];
  people: PersonResult[];
}

const NOTHING: SearchResults = { orders: [], products: [], people: [] };

const shopsWith = (shops: readonly PersonShop[], allowed: (role: Role) => boolean) =>
  shops.filter((shop) => allowed(shop.role)).map((shop) => shop.id);

/** The orders found (CTE `best`: shop, order, how it matched, score) with what the list shows of them. */
const orderRows = (limit: string) => `
      SELECT best."sellerId" AS "shopId", best."orderId", r."number" AS "reference", m."customerName", m."status",
             m."total", m."currency", m."normalizer", m."createdAt", best."matched", best."score"
      FROM best
      JOIN "OrderMirror" m ON m."sellerId" = best."sellerId" AND m."orderId" = best."orderId"
      LEFT JOIN "OrderReference" r ON r."sellerId" = best."sellerId" AND r."orderId" = best."orderId"
      ORDER BY best."score" DESC, m."createdAt" DESC
      LIMIT ${limit}`;

/** `column LIKE $first AND column LIKE $first+1 …`: each word's pattern, a parameter each. */
const likeEach = (column: string, first: number, count: number) =>
  Array.from({ length: count }, (_, index) => `${column} LIKE $${first + index}`).join(" AND ");

/**
 * The exact matches: a reference, an id, a customer key, part of a tracking code, every word in the
 * customer's name (newest first). One statement per number of words, each word a trigram lookup.
 */
function exactOrdersStatement(words: number) {
  const byName =
    words === 0
      ? ""
      : `
        UNION ALL
        SELECT hit."sellerId", hit."orderId", 'customer', 0.8::real
        FROM unnest($1::text[]) AS shop("id"), LATERAL (
          SELECT m."sellerId", m."orderId" FROM "OrderMirror" m
          WHERE m."sellerId" = shop."id" AND ${likeEach(`search_fold(m."customerName")`, 9, words)}
          ORDER BY m."createdAt" DESC LIMIT $8
        ) hit`;
  return {
    text: `/* search_orders_${words} */
      WITH found AS (
        SELECT r."sellerId", r."orderId", 'reference' AS "matched", 1.0::real AS "score"
        FROM "OrderReference" r WHERE $3::int IS NOT NULL AND r."sellerId" = ANY($1::text[]) AND r."number" = $3::int
        UNION ALL
        SELECT m."sellerId", m."orderId", 'id', 1.0::real FROM "OrderMirror" m
        WHERE $4::text IS NOT NULL AND m."orderId" = $4::text AND m."sellerId" = ANY($1::text[])
        UNION ALL
        SELECT m."sellerId", m."orderId", $6::text, 1.0::real FROM "OrderMirror" m
        WHERE $5::text IS NOT NULL AND m."customerKeys" @> ARRAY[$5::text] AND m."sellerId" = ANY($7::text[])
        UNION ALL
        SELECT hit."sellerId", hit."orderId", 'tracking', 0.9::real
        FROM unnest($1::text[]) AS shop("id"), LATERAL (
          SELECT m."sellerId", m."orderId" FROM "OrderMirror" m
          WHERE $2::text IS NOT NULL AND m."sellerId" = shop."id" AND search_fold(m."trackingNumbers") LIKE $2::text
          ORDER BY m."createdAt" DESC LIMIT $8
        ) hit${byName}
      ), best AS (
        SELECT DISTINCT ON ("sellerId", "orderId") * FROM found ORDER BY "sellerId", "orderId", "score" DESC
      )
      ${orderRows("$8")}`,
  };
}

/** A name with a typo, looked for only when no name holds every word: word similarity scores every candidate. */
const FUZZY_ORDERS = {
  text: `/* search_orders_fuzzy */
    WITH best AS (
      SELECT hit."sellerId", hit."orderId", 'customer' AS "matched", hit."score"
      FROM unnest($1::text[]) AS shop("id"), LATERAL (
        SELECT m."sellerId", m."orderId", word_similarity($2, search_fold(m."customerName")) AS "score"
        FROM "OrderMirror" m
        WHERE m."sellerId" = shop."id" AND $2 <% search_fold(m."customerName")
        ORDER BY "score" DESC, m."createdAt" DESC LIMIT $3
      ) hit
    )
    ${orderRows("$3")}`,
};

async function searchOrders(shops: readonly PersonShop[], text: string, raw: string): Promise<OrderResult[]> {
  const shopIds = shopsWith(shops, (role) => can(role, "orders.view"));
  if (shopIds.length === 0) return [];
  // An exact e-mail or document is looked for only in the shops whose role sees customer data.
  const key = customerKeyOfQuery(raw);
  const keyShops = key ? shopsWith(shops, (role) => can(role, "orders.customerData")) : [];
  const reference = /^#?(\d{1,9})$/.exec(raw.trim())?.[1];
  const orderId = /^[0-9a-f]{24}$/i.test(raw.trim()) ? raw.trim().toLowerCase() : null;
  const words = key ? [] : wordPatterns(text);
  const { rows } = await pool.query<OrderResult & { score: number }>({
    ...exactOrdersStatement(words.length),
    values: [
      shopIds,
      text.length >= 4 ? containing(text) : null,
      reference ?? null,
      orderId,
      keyShops.length > 0 ? key!.key : null,
      key?.kind ?? "email",
      keyShops,
      RESULTS_PER_GROUP.orders,
      ...words,
    ],
  });
  const exact = rows.map(({ score: _score, ...row }) => row);
  if (words.length === 0 || exact.some((order) => order.matched === "customer")) return exact;
  const fuzzy = await pool.query<OrderResult & { score: number }>({ ...FUZZY_ORDERS, values: [shopIds, text, RESULTS_PER_GROUP.orders] });
  const known = new Set(exact.map((order) => `${order.shopId} ${order.orderId}`));
  const added = fuzzy.rows.filter((order) => !known.has(`${order.shopId} ${order.orderId}`)).map(({ score: _score, ...row }) => row);
  return [...exact, ...added].slice(0, RESULTS_PER_GROUP.orders);
}

function productsStatement(words: number, fuzzy: boolean) {
  const matches = fuzzy
    ? `$2 <% search_fold(p."name")`
    : `((${words === 0 ? "false" : likeEach(`search_fold(p."name")`, 5, words)}) OR search_fold(p."sku") LIKE $4)`;
  return {
    text: `/* ${fuzzy ? "search_products_fuzzy" : `search_products_${words}`} */
      WITH found AS (
        SELECT hit.* FROM unnest($1::text[]) AS shop("id"), LATERAL (
          SELECT p."sellerId", p."sku", p."name", word_similarity($2, search_fold(p."name")) AS "score"
          FROM "ProductName" p
          WHERE p."sellerId" = shop."id" AND ${matches}
          ORDER BY "score" DESC, p."name" LIMIT $3
        ) hit
        UNION ALL
        SELECT s."sellerId", s."code", s."title", 1 FROM "Sku" s
        WHERE $${fuzzy ? 4 : words + 5}::text IS NOT NULL AND s."sellerId" = ANY($1::text[])
          AND s."payload"::jsonb -> 'identifiers' @> jsonb_build_array(jsonb_build_object('type', 'EAN', 'value', $${fuzzy ? 4 : words + 5}::text))
      ), best AS (
        SELECT DISTINCT ON ("sellerId", "sku") * FROM found ORDER BY "sellerId", "sku", "score" DESC
      )
      SELECT "sellerId" AS "shopId", "sku", "name" FROM best ORDER BY "score" DESC, "name" LIMIT $3`,
  };
}

async function searchProducts(shops: readonly PersonShop[], text: string): Promise<ProductResult[]> {
  const shopIds = shopsWith(shops, (role) => can(role, "prices.view") || can(role, "skus.view"));
  if (shopIds.length === 0 || text.length < 2) return [];
  const ean = /^\d{8}$|^\d{12,14}$/.test(text) ? text : null;
  const words = wordPatterns(text);
  const exact = await pool.query<ProductResult>({
    ...productsStatement(words.length, false),
    values: [shopIds, text, RESULTS_PER_GROUP.products, containing(text), ...words, ean],
  });
  if (exact.rows.length > 0 || words.length === 0) return exact.rows;
  // A misspelled name: no name holds every word.
  const fuzzy = await pool.query<ProductResult>({
    ...productsStatement(0, true),
    values: [shopIds, text, RESULTS_PER_GROUP.products, ean],
  });
  return fuzzy.rows;
}

async function searchPeople(shops: readonly PersonShop[], text: string): Promise<PersonResult[]> {
  const shopIds = shopsWith(shops, (role) => can(role, "members.manage"));
  if (shopIds.length === 0 || text.length < 2) return [];
  const { rows } = await pool.query<PersonResult>({
    text: `/* search_people */
      SELECT m."sellerId" AS "shopId", p."id" AS "personId", p."name", m."role"
      FROM "Membership" m JOIN "Person" p ON p."id" = m."personId"
      WHERE m."sellerId" = ANY($1::text[])
        AND (search_fold(p."name") LIKE $4 OR $2 <% search_fold(p."name") OR lower(coalesce(p."marketplaceEmail", '')) LIKE $4)
      ORDER BY word_similarity($2, search_fold(p."name")) DESC, p."name" LIMIT $3`,
    values: [shopIds, text, RESULTS_PER_GROUP.people, containing(text)],
  });
  return rows;
}

/** Folded on the database's side, by the function its indexes use. */
async function folded(query: string): Promise<string> {
  const { rows } = await pool.query<{ text: string }>({ text: `SELECT search_fold($1) AS "text"`, values: [query] });
  return rows[0]!.text;
}

export async function searchShops(shops: readonly PersonShop[], query: string): Promise<SearchResults> {
  const raw = searchText(query);
  if (raw === null || shops.length === 0) return NOTHING;
  const text = await folded(raw);
  const [orders, products, people] = await Promise.all([
    searchOrders(shops, text, raw),
    searchProducts(shops, text),
    searchPeople(shops, text),
  ]);
  return { orders, products, people };
}
