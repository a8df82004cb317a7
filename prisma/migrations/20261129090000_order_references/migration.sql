-- Short order references (decision 0018): a number per shop, given once to each order the
-- dashboard sees, in the order it first sees them, and never changed.
ALTER TABLE "Seller" ADD COLUMN "lastOrderNumber" INTEGER NOT NULL DEFAULT 1000;

CREATE TABLE "OrderReference" (
    "sellerId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    CONSTRAINT "OrderReference_pkey" PRIMARY KEY ("sellerId", "orderId")
);

CREATE UNIQUE INDEX "OrderReference_sellerId_number_key" ON "OrderReference"("sellerId", "number");

ALTER TABLE "OrderReference" ADD CONSTRAINT "OrderReference_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The orders mirrored so far get theirs now, oldest first.
WITH numbered AS (
  SELECT "sellerId", "orderId", 1000 + row_number() OVER (PARTITION BY "sellerId" ORDER BY "createdAt", "orderId") AS "number"
  FROM "OrderMirror"
)
INSERT INTO "OrderReference" ("sellerId", "orderId", "number") SELECT "sellerId", "orderId", "number" FROM numbered;

UPDATE "Seller" s SET "lastOrderNumber" = r."last"
FROM (SELECT "sellerId", max("number") AS "last" FROM "OrderReference" GROUP BY "sellerId") r
WHERE r."sellerId" = s."id";
