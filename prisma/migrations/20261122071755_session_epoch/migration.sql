-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "sessionEpoch" TEXT NOT NULL DEFAULT gen_random_uuid()::text;

