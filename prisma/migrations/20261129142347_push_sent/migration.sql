-- CreateTable
CREATE TABLE "PushSent" (
    "messageId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushSent_pkey" PRIMARY KEY ("messageId","subscriptionId")
);

-- AddForeignKey
ALTER TABLE "PushSent" ADD CONSTRAINT "PushSent_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "PushSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

