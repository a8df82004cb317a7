-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "misSignedForeignAt" TIMESTAMP(3),
ADD COLUMN     "misSignedForeignCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "heldUntil" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "SellerSession" (
    "id" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SellerSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SellerSession_sellerId_idx" ON "SellerSession"("sellerId");

-- CreateIndex
CREATE INDEX "SellerSession_startedAt_idx" ON "SellerSession"("startedAt");

-- CreateIndex
CREATE INDEX "OrderMirror_orderId_idx" ON "OrderMirror"("orderId");

-- CreateIndex
CREATE INDEX "Sku_code_idx" ON "Sku"("code");

-- AddForeignKey
ALTER TABLE "SellerSession" ADD CONSTRAINT "SellerSession_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

