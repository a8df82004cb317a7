-- CreateTable
CREATE TABLE "ProductName" (
    "sellerId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "namedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProductName_pkey" PRIMARY KEY ("sellerId","sku")
);

-- AddForeignKey
ALTER TABLE "ProductName" ADD CONSTRAINT "ProductName_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Back-fill: the SKUs the dashboard already created name their codes. A code created more than
-- once (a SKU is never edited: a new version is a new SKU with the same code) takes the newest
-- title, as recording a new SKU does from now on (lib/data/skus.ts).
INSERT INTO "ProductName" ("sellerId", "sku", "name", "source", "namedAt")
SELECT DISTINCT ON ("sellerId", "code") "sellerId", "code", btrim("title"), 'catalogue', "createdAt"
FROM "Sku"
WHERE btrim("title") <> ''
ORDER BY "sellerId", "code", "createdAt" DESC, "id" DESC;
