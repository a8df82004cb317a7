-- By hand (issue 42): orders mirrored before the migrations "search" and "order_items" have no
-- tracking numbers, customer keys, state or items, so search could not find them by those and the
-- sales page's best products left them out. A shop whose back-fill was done runs it again: it lists
-- the orders of the back-fill window and open ones, and the mirror's upsert rewrites a row whose
-- updated_at is not newer than the platform's (lib/orders/order-mirror.server.ts), tells nobody
-- (a back-fill never does) and leaves short references as they are. Older orders keep their rows.
UPDATE "SellerSync"
SET "backfillState" = 'idle', "cursor" = NULL, "backfillFrom" = NULL, "backfilledOrders" = 0,
    "backfillStartedAt" = NULL, "backfillFinishedAt" = NULL, "nextRunAt" = NULL
WHERE "backfillState" = 'done';
