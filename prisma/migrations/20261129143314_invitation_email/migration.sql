-- AlterTable
ALTER TABLE "Invitation" ADD COLUMN     "email" TEXT,
ADD COLUMN     "linkEnc" TEXT;

