-- DropIndex
DROP INDEX "WebhookEvent_sellerId_bodyHash_idx";

-- DropIndex
DROP INDEX "WebhookEvent_sellerId_receivedAt_idx";

-- CreateIndex
CREATE INDEX "OrderMirror_sellerId_createdAt_idx" ON "OrderMirror"("sellerId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_bodyHash_receivedAt_idx" ON "WebhookEvent"("sellerId", "bodyHash", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_receivedAt_id_idx" ON "WebhookEvent"("sellerId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_status_receivedAt_idx" ON "WebhookEvent"("sellerId", "status", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_resourceId_idx" ON "WebhookEvent"("sellerId", "resourceId");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_orderId_idx" ON "WebhookEvent"("sellerId", "orderId");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_deliveryId_idx" ON "WebhookEvent"("sellerId", "deliveryId");

-- CreateIndex
CREATE INDEX "WebhookEvent_sellerId_code_idx" ON "WebhookEvent"("sellerId", "code");

-- CreateIndex
CREATE INDEX "WebhookEvent_receivedAt_idx" ON "WebhookEvent"("receivedAt");

