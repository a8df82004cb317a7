-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "callbackHere" BOOLEAN;


-- What connecting did tells where the callback pointed then.
UPDATE "Connection" SET "callbackHere" = true WHERE "notificationsAtConnect" IN ('on', 'already');
UPDATE "Connection" SET "callbackHere" = false WHERE "notificationsAtConnect" = 'elsewhere';

-- "Connect the shop again" becomes one cause of "the shop needs its owner" (issue 41): the
-- permissions, the callback URL and dead events are the others. The cause leads the subject.
UPDATE "Notification" SET "kind" = 'shop.attention', "subject" = 'reconnect:' || "subject" WHERE "kind" = 'shop.reconnect';
UPDATE "NotificationMessage" SET "kind" = 'shop.attention', "subject" = 'reconnect:' || "subject"
WHERE "kind" = 'shop.reconnect' AND "subject" IS NOT NULL;
UPDATE "NotificationMessage" SET "kind" = 'shop.attention' WHERE "kind" = 'shop.reconnect';
UPDATE "NotificationChoice" SET "kind" = 'shop.attention' WHERE "kind" = 'shop.reconnect';
