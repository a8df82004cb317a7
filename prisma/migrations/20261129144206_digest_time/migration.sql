-- AlterTable
ALTER TABLE "NotificationHours" ADD COLUMN     "digestAt" INTEGER;

