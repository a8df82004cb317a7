-- AlterTable
ALTER TABLE "OrderMirror" ADD COLUMN     "items" JSONB NOT NULL DEFAULT '[]';

