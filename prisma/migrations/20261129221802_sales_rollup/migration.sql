-- CreateTable
CREATE TABLE "SalesRollup" (
    "sellerId" TEXT NOT NULL,
    "dimension" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "key" TEXT NOT NULL,
    "gross" BIGINT NOT NULL DEFAULT 0,
    "net" BIGINT NOT NULL DEFAULT 0,
    "withoutNet" INTEGER NOT NULL DEFAULT 0,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "cancelled" INTEGER NOT NULL DEFAULT 0,
    "otherCurrency" INTEGER NOT NULL DEFAULT 0,
    "units" INTEGER NOT NULL DEFAULT 0,
    "revenue" BIGINT NOT NULL DEFAULT 0,
    "withoutRevenue" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SalesRollup_pkey" PRIMARY KEY ("sellerId","dimension","grain","at","key")
);

-- AddForeignKey
ALTER TABLE "SalesRollup" ADD CONSTRAINT "SalesRollup_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- By hand (issue 42, decision 0022): the roll-up is kept by these triggers, so every write to the
-- mirror (processing, reconciliation, back-fill, a migration, a shop removed) keeps it equal to the
-- sums of the mirror's rows. One statement adds what its new rows bring and takes away what its old
-- rows brought, summed per roll-up row, in the primary key's order, so two writers lock the rows
-- they share in the same order. A row rewritten with no change to what is summed adds nothing.
-- "gross" and "net" are centavos as lib/orders/centavos-sql.ts computes them, for orders in reais
-- not cancelled (features/sales/sales.server.ts); "sku" rows follow features/sales/best-products.server.ts.
-- The statement that adds to the roll-up what `changed` brings: rows of the mirror's columns below,
-- each with a "sign" (1 added, -1 taken away).
CREATE FUNCTION sales_rollup_statement(changed text) RETURNS text LANGUAGE sql IMMUTABLE AS $function$
  SELECT format($sql$
    WITH changed AS (%s),
    figures AS (
      SELECT "sign", "sellerId", "createdAt", coalesce("state", '') AS "state", "status", "items",
             "sign" * CASE WHEN "sold" THEN "centavosTotal" ELSE 0 END AS "gross",
             "sign" * CASE WHEN "sold" THEN coalesce("centavosNet", 0) ELSE 0 END AS "net",
             "sign" * ("sold" AND "net" IS NULL)::int AS "withoutNet",
             "sign" * "sold"::int AS "orders",
             "sign" * ("status" = 'cancelled' AND "currency" = 'BRL')::int AS "cancelled",
             "sign" * ("currency" <> 'BRL')::int AS "otherCurrency"
      FROM (
        SELECT *, "status" <> 'cancelled' AND "currency" = 'BRL' AS "sold",
               CASE WHEN "normalizer" = 100 THEN "total"::bigint ELSE round("total"::numeric * 100 / "normalizer")::bigint END AS "centavosTotal",
               CASE WHEN "normalizer" = 100 THEN "net"::bigint ELSE round("net"::numeric * 100 / "normalizer")::bigint END AS "centavosNet"
        FROM changed
      ) AS c
    ),
    grains AS (SELECT * FROM (VALUES ('hour'), ('day'), ('month')) AS g("grain")),
    -- A SKU's hours would be as many rows as order lines: the ends of a period read its orders instead.
    sku_grains AS (SELECT * FROM (VALUES ('day'), ('month')) AS g("grain")),
    parts AS (
      SELECT "sellerId", 'total' AS "dimension", 'hour' AS "grain", date_trunc('hour', "createdAt") AS "at", '' AS "key",
             "gross", "net", "withoutNet", "orders", "cancelled", "otherCurrency", 0 AS "units", 0::bigint AS "revenue", 0 AS "withoutRevenue"
      FROM figures
      UNION ALL
      SELECT "sellerId", 'state', g."grain", date_trunc(g."grain", "createdAt"), "state",
             "gross", "net", "withoutNet", "orders", "cancelled", "otherCurrency", 0, 0, 0
      FROM figures CROSS JOIN grains g
      UNION ALL
      SELECT f."sellerId", 'sku', g."grain", date_trunc(g."grain", f."createdAt"), i."sku", 0, 0, 0, 0, 0, 0,
             f."sign" * coalesce(i."quantity", 0), f."sign" * coalesce(i."revenue", 0), f."sign" * (i."revenue" IS NULL)::int
      FROM figures f CROSS JOIN LATERAL jsonb_to_recordset(f."items") AS i("sku" text, "quantity" int, "revenue" bigint)
           CROSS JOIN sku_grains g
      WHERE f."status" <> 'cancelled' AND i."sku" IS NOT NULL
    )
    INSERT INTO "SalesRollup" AS r ("sellerId", "dimension", "grain", "at", "key", "gross", "net", "withoutNet", "orders",
                                    "cancelled", "otherCurrency", "units", "revenue", "withoutRevenue")
    SELECT "sellerId", "dimension", "grain", "at", "key", sum("gross"), sum("net"), sum("withoutNet"), sum("orders"),
           sum("cancelled"), sum("otherCurrency"), sum("units"), sum("revenue"), sum("withoutRevenue")
    FROM parts
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum("gross") <> 0 OR sum("net") <> 0 OR sum("withoutNet") <> 0 OR sum("orders") <> 0 OR sum("cancelled") <> 0
        OR sum("otherCurrency") <> 0 OR sum("units") <> 0 OR sum("revenue") <> 0 OR sum("withoutRevenue") <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("sellerId", "dimension", "grain", "at", "key") DO UPDATE SET
      "gross" = r."gross" + excluded."gross", "net" = r."net" + excluded."net", "withoutNet" = r."withoutNet" + excluded."withoutNet",
      "orders" = r."orders" + excluded."orders", "cancelled" = r."cancelled" + excluded."cancelled",
      "otherCurrency" = r."otherCurrency" + excluded."otherCurrency", "units" = r."units" + excluded."units",
      "revenue" = r."revenue" + excluded."revenue", "withoutRevenue" = r."withoutRevenue" + excluded."withoutRevenue"
  $sql$, changed)
$function$;

CREATE FUNCTION sales_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $function$
DECLARE
  kept CONSTANT text := '"sellerId", "createdAt", "status", "currency", "normalizer", "total", "net", "state", "items"';
  same CONSTANT text := '(n."createdAt", n."status", n."currency", n."normalizer", n."total", n."net", n."state", n."items")
    IS NOT DISTINCT FROM (o."createdAt", o."status", o."currency", o."normalizer", o."total", o."net", o."state", o."items")';
BEGIN
  EXECUTE sales_rollup_statement(CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS "sign", %s FROM new_rows', kept)
    -- A shop being removed takes its roll-up with it: nothing to take away from.
    WHEN 'DELETE' THEN format('SELECT -1 AS "sign", %s FROM old_rows o WHERE EXISTS (SELECT FROM "Seller" s WHERE s."id" = o."sellerId")', kept)
    ELSE format(
      'SELECT -1 AS "sign", %1$s FROM old_rows o
         WHERE NOT EXISTS (SELECT FROM new_rows n WHERE n."sellerId" = o."sellerId" AND n."orderId" = o."orderId" AND %2$s)
       UNION ALL
       SELECT 1, %1$s FROM new_rows n
         WHERE NOT EXISTS (SELECT FROM old_rows o WHERE o."sellerId" = n."sellerId" AND o."orderId" = n."orderId" AND %2$s)',
      kept, same)
  END);
  RETURN NULL;
END
$function$;

CREATE TRIGGER "OrderMirror_sales_insert" AFTER INSERT ON "OrderMirror"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();
CREATE TRIGGER "OrderMirror_sales_update" AFTER UPDATE ON "OrderMirror"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();
CREATE TRIGGER "OrderMirror_sales_delete" AFTER DELETE ON "OrderMirror"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();

-- The orders mirrored so far.
DO $$ BEGIN
  EXECUTE sales_rollup_statement('SELECT 1 AS "sign", "sellerId", "createdAt", "status", "currency", "normalizer", "total", "net", "state", "items" FROM "OrderMirror"');
END $$;
