-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Seller" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Seller_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Connection" (
    "id" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "accessTokenEnc" TEXT NOT NULL,
    "scopesRequested" TEXT NOT NULL,
    "scopesMissing" TEXT NOT NULL DEFAULT '',
    "connectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "needsReconnectAt" TIMESTAMP(3),
    "webhookKey" TEXT NOT NULL,

    CONSTRAINT "Connection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastReceivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "domain" TEXT,
    "status" TEXT,
    "resourceId" TEXT,
    "code" TEXT,
    "orderId" TEXT,
    "deliveryId" TEXT,
    "rawBody" TEXT NOT NULL,
    "bodyHash" TEXT NOT NULL,
    "headers" TEXT NOT NULL,
    "signatureResult" TEXT NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "invalidReason" TEXT,
    "processingState" TEXT NOT NULL DEFAULT 'pending',
    "processingError" TEXT,
    "processedAt" TIMESTAMP(3),
    "duplicateCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookWork" (
    "eventId" TEXT NOT NULL,
    "claimedBy" TEXT,
    "availableAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookWork_pkey" PRIMARY KEY ("eventId")
);

-- CreateTable
CREATE TABLE "LiveMessage" (
    "id" BIGSERIAL NOT NULL,
    "sellerId" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LiveMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Sku" (
    "id" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "importToken" TEXT,
    "status" TEXT NOT NULL DEFAULT 'imported',
    "payload" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmedAt" TIMESTAMP(3),

    CONSTRAINT "Sku_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Seller_email_key" ON "Seller"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Connection_sellerId_key" ON "Connection"("sellerId");

-- CreateIndex
CREATE UNIQUE INDEX "Connection_webhookKey_key" ON "Connection"("webhookKey");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_receivedAt_idx" ON "WebhookEvent"("sellerId", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_domain_receivedAt_idx" ON "WebhookEvent"("sellerId", "domain", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEvent_sellerId_bodyHash_key" ON "WebhookEvent"("sellerId", "bodyHash");

-- CreateIndex
CREATE INDEX "WebhookWork_availableAt_idx" ON "WebhookWork"("availableAt");

-- CreateIndex
CREATE INDEX "LiveMessage_sellerId_id_idx" ON "LiveMessage"("sellerId", "id");

-- CreateIndex
CREATE INDEX "Sku_sellerId_createdAt_idx" ON "Sku"("sellerId", "createdAt");

-- CreateIndex
CREATE INDEX "Sku_sellerId_code_idx" ON "Sku"("sellerId", "code");

-- AddForeignKey
ALTER TABLE "Connection" ADD CONSTRAINT "Connection_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEvent" ADD CONSTRAINT "WebhookEvent_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookWork" ADD CONSTRAINT "WebhookWork_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LiveMessage" ADD CONSTRAINT "LiveMessage_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Storage settings Prisma does not model (a later `migrate diff` neither sees nor undoes them):
-- Recording a processing outcome updates only columns no index covers; free room on each page lets
-- PostgreSQL do it in place (a HOT update, no index entries), the cheap path at hundreds of
-- events per second (docs/decisions/0002-webhook-receiver-hot-path.md).
ALTER TABLE "WebhookEvent" SET (fillfactor = 90);
-- Live messages are a cache for catching up after a reconnect (lib/live/bus.ts), kept an hour and
-- pruned by id: no WAL for them. A database crash empties the table; open pages refresh on their
-- next message.
ALTER TABLE "LiveMessage" SET UNLOGGED;
