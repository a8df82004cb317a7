-- AlterTable
ALTER TABLE "OrderMirror" ADD COLUMN     "customerKeys" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "state" TEXT,
ADD COLUMN     "trackingNumbers" TEXT NOT NULL DEFAULT '';


-- Search (issue 42), by hand: Prisma's schema cannot name extensions, functions or expression
-- indexes. Accents and case are folded by search_fold, the same function on both sides of every
-- comparison; trigram indexes (pg_trgm) find a name with a typo and any part of a tracking number;
-- btree_gin lets a trigram index start with the shop, so a search reads only the person's shops.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- unaccent() is only STABLE (its dictionary could change); naming the dictionary makes the fold
-- fixed, as an index over it requires.
CREATE OR REPLACE FUNCTION search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));

CREATE INDEX "OrderMirror_search_customer" ON "OrderMirror" USING gin ("sellerId", search_fold("customerName") gin_trgm_ops);
CREATE INDEX "OrderMirror_search_tracking" ON "OrderMirror" USING gin ("sellerId", search_fold("trackingNumbers") gin_trgm_ops);
-- Keyed hashes are nearly unique across every shop: the shop is checked on the few rows found.
CREATE INDEX "OrderMirror_search_keys" ON "OrderMirror" USING gin ("customerKeys");
CREATE INDEX "ProductName_search_name" ON "ProductName" USING gin ("sellerId", search_fold("name") gin_trgm_ops);
CREATE INDEX "ProductName_search_sku" ON "ProductName" USING gin ("sellerId", search_fold("sku") gin_trgm_ops);
