-- Orders mirrored before the mirror kept the net (20261126010000_margins_and_shipping) have no
-- commission, seller freight or net, and the overview leaves them out of its net sales. A shop runs
-- the back-fill until its backfillState is 'done' (lib/sync/reconcile.ts), so each connected shop
-- with such rows goes through it once more, at its usual slot: from the oldest of those rows that
-- is not open (open orders are read again whatever their age), so every one of them is read again
-- and written with its net (docs/decisions/0012-net-per-order.md). Data only.
UPDATE "SellerSync" s
SET "backfillState" = 'running',
    "cursor" = NULL,
    "backfillFrom" = (
      SELECT min(m."updatedAt") FROM "OrderMirror" m
      WHERE m."sellerId" = s."sellerId" AND m."net" IS NULL AND m."status" NOT IN ('new', 'approved')
    ),
    "backfilledOrders" = 0,
    "backfillStartedAt" = (now() AT TIME ZONE 'UTC'),
    "backfillFinishedAt" = NULL
WHERE EXISTS (SELECT 1 FROM "OrderMirror" m WHERE m."sellerId" = s."sellerId" AND m."net" IS NULL)
  AND EXISTS (SELECT 1 FROM "Connection" c WHERE c."sellerId" = s."sellerId");
