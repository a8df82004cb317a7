// A dead event keeps its WebhookWork row with this availableAt, never due (decision 0004): the
// queue (features/webhooks/process/queue.server.ts) writes it; the metrics and the morning digest
// count dead events by it.
export const DEAD_UNTIL = `TIMESTAMP '9999-12-31 00:00:00'`;
