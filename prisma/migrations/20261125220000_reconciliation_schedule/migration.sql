-- AlterTable
ALTER TABLE "SellerSync" ADD COLUMN     "claimedBy" TEXT,
ADD COLUMN     "claimedUntil" TIMESTAMP(3),
ADD COLUMN     "nextRunAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "SellerSync_nextRunAt_idx" ON "SellerSync"("nextRunAt");

-- Every connected shop gets a schedule row, its first slot spread at random over the default
-- interval (300 s), so that a deploy does not send every shop's reconciliation at once.
INSERT INTO "SellerSync" ("sellerId")
SELECT c."sellerId" FROM "Connection" c
ON CONFLICT ("sellerId") DO NOTHING;

UPDATE "SellerSync" SET "nextRunAt" = (now() AT TIME ZONE 'UTC') + random() * interval '300 seconds';
