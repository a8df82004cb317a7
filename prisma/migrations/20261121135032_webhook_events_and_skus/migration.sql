-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sellerId" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastReceivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
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
    "processedAt" DATETIME,
    "duplicateCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "WebhookEvent_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Sku" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sellerId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "importToken" TEXT,
    "status" TEXT NOT NULL DEFAULT 'imported',
    "payload" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmedAt" DATETIME,
    CONSTRAINT "Sku_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_receivedAt_idx" ON "WebhookEvent"("sellerId", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_domain_receivedAt_idx" ON "WebhookEvent"("sellerId", "domain", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEvent_sellerId_bodyHash_key" ON "WebhookEvent"("sellerId", "bodyHash");

-- CreateIndex
CREATE INDEX "Sku_sellerId_createdAt_idx" ON "Sku"("sellerId", "createdAt");

-- CreateIndex
CREATE INDEX "Sku_sellerId_code_idx" ON "Sku"("sellerId", "code");

