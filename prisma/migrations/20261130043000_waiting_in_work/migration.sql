-- Coalescing's key moves from WebhookEvent to WebhookWork (decision 0004). Taking an event up ends
-- its coalescing; on WebhookEvent that meant clearing an indexed column, an update that could not
-- be HOT and wrote an entry in each of the event's eleven indexes. WebhookWork has three.
ALTER TABLE "WebhookWork" ADD COLUMN "sellerId" TEXT,
ADD COLUMN "waitingHash" TEXT;

UPDATE "WebhookWork" w SET "sellerId" = e."sellerId", "waitingHash" = e."waitingHash"
FROM "WebhookEvent" e
WHERE e."id" = w."eventId" AND e."waitingHash" IS NOT NULL;

-- DropIndex
DROP INDEX "WebhookEvent_sellerId_waitingHash_key";

-- AlterTable
ALTER TABLE "WebhookEvent" DROP COLUMN "waitingHash";

-- CreateIndex
CREATE UNIQUE INDEX "WebhookWork_sellerId_waitingHash_key" ON "WebhookWork"("sellerId", "waitingHash");
