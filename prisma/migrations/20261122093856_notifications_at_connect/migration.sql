-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "notificationsAtConnect" TEXT;

