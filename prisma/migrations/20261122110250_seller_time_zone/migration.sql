-- AlterTable
ALTER TABLE "Seller" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'America/Sao_Paulo';

