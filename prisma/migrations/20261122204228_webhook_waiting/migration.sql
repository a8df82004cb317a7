-- The coalescing window of a received event moves from WebhookEvent."waitingHash" (an indexed
-- column: clearing it at take-up was a non-HOT update writing new entries in all five of the
-- event's indexes) to a small table whose row is deleted at take-up (docs/decisions/0004).

-- CreateTable
CREATE TABLE "WebhookWaiting" (
    "eventId" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "bodyHash" TEXT NOT NULL,

    CONSTRAINT "WebhookWaiting_pkey" PRIMARY KEY ("eventId")
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookWaiting_sellerId_bodyHash_key" ON "WebhookWaiting"("sellerId", "bodyHash");

-- AddForeignKey
ALTER TABLE "WebhookWaiting" ADD CONSTRAINT "WebhookWaiting_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Events still waiting keep waiting: an identical body arriving after the upgrade is coalesced
-- into them as before.
INSERT INTO "WebhookWaiting" ("eventId", "sellerId", "bodyHash")
SELECT "id", "sellerId", "waitingHash" FROM "WebhookEvent" WHERE "waitingHash" IS NOT NULL;

-- DropIndex
DROP INDEX "WebhookEvent_sellerId_waitingHash_key";

-- AlterTable
ALTER TABLE "WebhookEvent" DROP COLUMN "waitingHash";
