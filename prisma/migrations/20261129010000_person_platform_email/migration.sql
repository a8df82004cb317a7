-- The exact spelling of a person's marketplace e-mail, as Seller.platformEmail keeps a shop's.
ALTER TABLE "Person" ADD COLUMN "platformEmail" TEXT;

-- A person who owns the shop of their own marketplace account gets that shop's spelling; others
-- learn theirs at their next sign-in.
UPDATE "Person" p
SET "platformEmail" = s."platformEmail"
FROM "Seller" s
WHERE s."email" = p."marketplaceEmail" AND s."platformEmail" IS NOT NULL;
