// Lists the demo seller's new orders from a running sandbox (npm run sandbox): a token from the
// sandbox's control route stands in for the OAuth flow an integration goes through.
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import { retryRateLimited } from "@marketplace/api/rate-limit";

const baseUrl = process.env.MARKETPLACE_BASE_URL ?? "http://127.0.0.1:4010";
const issued = await fetch(`${baseUrl}/_sandbox/tokens`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ sellers: ["seller@example.com"] }),
});
if (!issued.ok) throw new Error(`The sandbox at ${baseUrl} gave no token (HTTP ${issued.status}): is it running?`);
const { tokens } = (await issued.json()) as { tokens: { access_token: string }[] };

const client = createMarketplaceClient({ baseUrl, accessToken: tokens[0]!.access_token });
const page = await retryRateLimited(() => client.listOrderSummaries(ordersQuery({ statuses: ["new"], limit: 10 })), { attempts: 3 });
for (const order of page.items) console.log(`${order.id}  ${order.status}  ${order.created_at}`);
console.log(page.next ? "(more on the next page)" : "(no more)");
