-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "previousTokenEnc" TEXT,
ADD COLUMN     "previousTokenUntil" TIMESTAMP(3);

