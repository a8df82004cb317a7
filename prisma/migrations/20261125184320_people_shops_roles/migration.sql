-- People, shops and memberships (issue 27, docs/decisions/0010-people-shops-and-roles.md).
-- A Seller row becomes a shop; each existing seller becomes a person who owns it, and their
-- signed-in sessions become that person's, so a cookie issued before this migration still works.
-- AlterTable
ALTER TABLE "Connection" DROP COLUMN "sessionEpoch";

-- CreateTable
CREATE TABLE "Person" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "marketplaceEmail" TEXT,
    "lastShopId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Person_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "sellerId" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("sellerId","personId")
);

-- CreateTable
CREATE TABLE "PersonSession" (
    "id" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersonSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Passkey" (
    "id" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "publicKey" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL,
    "transports" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "Passkey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PasskeyChallenge" (
    "id" TEXT NOT NULL,
    "challenge" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "personId" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PasskeyChallenge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "acceptedById" TEXT,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" BIGSERIAL NOT NULL,
    "sellerId" TEXT NOT NULL,
    "personId" TEXT,
    "personName" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Person_marketplaceEmail_key" ON "Person"("marketplaceEmail");

-- CreateIndex
CREATE INDEX "Membership_personId_idx" ON "Membership"("personId");

-- CreateIndex
CREATE INDEX "PersonSession_personId_idx" ON "PersonSession"("personId");

-- CreateIndex
CREATE INDEX "PersonSession_startedAt_idx" ON "PersonSession"("startedAt");

-- CreateIndex
CREATE INDEX "Passkey_personId_idx" ON "Passkey"("personId");

-- CreateIndex
CREATE INDEX "PasskeyChallenge_expiresAt_idx" ON "PasskeyChallenge"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_sellerId_createdAt_idx" ON "Invitation"("sellerId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEntry_sellerId_at_idx" ON "AuditEntry"("sellerId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_sellerId_kind_at_idx" ON "AuditEntry"("sellerId", "kind", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_sellerId_personId_at_idx" ON "AuditEntry"("sellerId", "personId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_at_idx" ON "AuditEntry"("at");

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonSession" ADD CONSTRAINT "PersonSession_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Passkey" ADD CONSTRAINT "Passkey_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Data: every seller is a shop with one owner, a person signing in with the seller's marketplace
-- account; each open session carries over to that person.
INSERT INTO "Person" ("id", "name", "marketplaceEmail", "lastShopId", "createdAt")
SELECT 'p_' || s."id", s."name", s."email", s."id", s."createdAt" FROM "Seller" s;

INSERT INTO "Membership" ("sellerId", "personId", "role", "createdAt")
SELECT s."id", 'p_' || s."id", 'owner', s."createdAt" FROM "Seller" s;

INSERT INTO "PersonSession" ("id", "personId", "startedAt")
SELECT ss."id", 'p_' || ss."sellerId", ss."startedAt" FROM "SellerSession" ss;

DROP TABLE "SellerSession";
