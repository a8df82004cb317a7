-- DropIndex
DROP INDEX "LiveMessage_createdAt_idx";


-- Live messages are a cache for catching up after a reconnect (lib/live/bus.ts), kept an hour and
-- pruned by id: no WAL for them, and no index on createdAt. Prisma does not model UNLOGGED, so
-- it lives here only (a later `migrate diff` does not see it, and does not undo it).
ALTER TABLE "LiveMessage" SET UNLOGGED;
