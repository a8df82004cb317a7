-- AlterTable
ALTER TABLE "Seller" ADD COLUMN     "platformEmail" TEXT;

