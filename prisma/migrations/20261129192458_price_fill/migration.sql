-- AlterTable
ALTER TABLE "SellerSync" ADD COLUMN     "pricesListedAt" TIMESTAMP(3);

