-- The overview's setup guide (features/overview/setup-guide/): one row per shop, made on first need.
-- CreateTable
CREATE TABLE "SetupGuide" (
    "sellerId" TEXT NOT NULL,
    "appOpenedAt" TIMESTAMP(3),
    "dismissedAt" TIMESTAMP(3),
    "dismissedById" TEXT,
    "bestSellers" JSONB,
    "bestSellersAt" TIMESTAMP(3),

    CONSTRAINT "SetupGuide_pkey" PRIMARY KEY ("sellerId")
);

-- AddForeignKey
ALTER TABLE "SetupGuide" ADD CONSTRAINT "SetupGuide_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;
