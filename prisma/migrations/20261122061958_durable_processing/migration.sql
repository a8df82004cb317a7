-- DropIndex
DROP INDEX "WebhookEvent_sellerId_bodyHash_key";

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'webhook',
ADD COLUMN     "waitingHash" TEXT;

-- CreateTable
CREATE TABLE "OrderMirror" (
    "sellerId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "approvedAt" TIMESTAMP(3),
    "customerName" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "normalizer" INTEGER NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "deliveries" JSONB NOT NULL,
    "nextLimitAt" TIMESTAMP(3),
    "syncedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderMirror_pkey" PRIMARY KEY ("sellerId","orderId")
);

-- CreateTable
CREATE TABLE "PriceMirror" (
    "sellerId" TEXT NOT NULL,
    "priceId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "value" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "normalizer" INTEGER NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PriceMirror_pkey" PRIMARY KEY ("sellerId","priceId")
);

-- CreateTable
CREATE TABLE "SellerSync" (
    "sellerId" TEXT NOT NULL,
    "cursor" TIMESTAMP(3),
    "lastReconciledAt" TIMESTAMP(3),
    "lastRecovered" INTEGER NOT NULL DEFAULT 0,
    "recoveredTotal" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "backfillState" TEXT NOT NULL DEFAULT 'idle',
    "backfillFrom" TIMESTAMP(3),
    "backfilledOrders" INTEGER NOT NULL DEFAULT 0,
    "backfillStartedAt" TIMESTAMP(3),
    "backfillFinishedAt" TIMESTAMP(3),

    CONSTRAINT "SellerSync_pkey" PRIMARY KEY ("sellerId")
);

-- CreateIndex
CREATE INDEX "OrderMirror_sellerId_updatedAt_idx" ON "OrderMirror"("sellerId", "updatedAt");

-- CreateIndex
CREATE INDEX "OrderMirror_sellerId_status_nextLimitAt_idx" ON "OrderMirror"("sellerId", "status", "nextLimitAt");

-- CreateIndex
CREATE INDEX "PriceMirror_sellerId_sku_idx" ON "PriceMirror"("sellerId", "sku");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_bodyHash_idx" ON "WebhookEvent"("sellerId", "bodyHash");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEvent_sellerId_waitingHash_key" ON "WebhookEvent"("sellerId", "waitingHash");

-- AddForeignKey
ALTER TABLE "OrderMirror" ADD CONSTRAINT "OrderMirror_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PriceMirror" ADD CONSTRAINT "PriceMirror_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SellerSync" ADD CONSTRAINT "SellerSync_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Events waiting when this migration runs keep coalescing identical bodies; a failed event of the
-- previous design (never retried) becomes dead, with a queue row so it is counted and can be
-- processed again.
UPDATE "WebhookEvent" SET "waitingHash" = "bodyHash" WHERE "processingState" = 'pending';
UPDATE "WebhookEvent" SET "processingState" = 'dead' WHERE "processingState" = 'failed';
INSERT INTO "WebhookWork" ("eventId", "claimedBy", "availableAt")
SELECT "id", NULL, TIMESTAMP '9999-12-31 00:00:00' FROM "WebhookEvent" WHERE "processingState" = 'dead'
ON CONFLICT ("eventId") DO NOTHING;
