-- AlterTable
ALTER TABLE "Seller" ADD COLUMN     "commissionRateBps" INTEGER,
ADD COLUMN     "priceChangeLimitPercent" INTEGER NOT NULL DEFAULT 30;

-- AlterTable
ALTER TABLE "OrderMirror" ADD COLUMN     "commission" INTEGER,
ADD COLUMN     "net" INTEGER,
ADD COLUMN     "sellerFreight" INTEGER;

-- CreateTable
CREATE TABLE "ProductCost" (
    "id" BIGSERIAL NOT NULL,
    "sellerId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "cost" INTEGER,
    "setAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "personId" TEXT,
    "personName" TEXT NOT NULL,
    "source" TEXT NOT NULL,

    CONSTRAINT "ProductCost_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderPacking" (
    "sellerId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "personId" TEXT,

    CONSTRAINT "OrderPacking_pkey" PRIMARY KEY ("sellerId","orderId")
);

-- CreateIndex
CREATE INDEX "ProductCost_sellerId_sku_setAt_idx" ON "ProductCost"("sellerId", "sku", "setAt" DESC);

-- CreateIndex
CREATE INDEX "OrderPacking_sellerId_stage_idx" ON "OrderPacking"("sellerId", "stage");

-- AddForeignKey
ALTER TABLE "ProductCost" ADD CONSTRAINT "ProductCost_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderPacking" ADD CONSTRAINT "OrderPacking_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;
