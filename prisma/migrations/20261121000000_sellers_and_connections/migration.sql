-- CreateTable
CREATE TABLE "Seller" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Connection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sellerId" TEXT NOT NULL,
    "accessTokenEnc" TEXT NOT NULL,
    "scopesRequested" TEXT NOT NULL,
    "scopesMissing" TEXT NOT NULL DEFAULT '',
    "connectedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "needsReconnectAt" DATETIME,
    "webhookKey" TEXT NOT NULL,
    CONSTRAINT "Connection_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "Seller" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Seller_email_key" ON "Seller"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Connection_sellerId_key" ON "Connection"("sellerId");

-- CreateIndex
CREATE UNIQUE INDEX "Connection_webhookKey_key" ON "Connection"("webhookKey");

