// With --allow-writes and --listen: the webhook round trip (spec: Endpoint 10; Events). The kit
// points the callback URL at its receiver, the SKU it creates triggers a `portfolio.sku` `created`
// notification ("creating a SKU yields a portfolio.sku notification with status created"), the
// receiver checks its shape and `X-SVC-Signature`, and the previous callback URL is put back.
import { ENDPOINTS } from "@marketplace/api/client";
import { describeZodFailure } from "@marketplace/api/errors";
import { webhookMessageSchema, webhookUrlDeleteResponseSchema, webhookUrlSetResponseSchema } from "@marketplace/api/schemas/webhook";
import { describeExchange, requestLine } from "../http";
import { readPath } from "../records";
import { ensure, fail, prerequisite, skip, type Check, type Kit } from "../kit";
import { startWebhookReceiver, type ReceivedNotification, type WebhookReceiver } from "../receiver";
import { verifySignature, WEBHOOK_SIGNATURE_HEADER } from "../signature";
import { callbackBeforeRun, readCallbackNow } from "./reads";
import { requireWrites } from "./writes";

function receiverOf(kit: Kit): Promise<WebhookReceiver> {
  const port = kit.options.listen;
  if (port === undefined) skip("needs --listen PORT");
  return kit.once("receiver", async () => {
    const receiver = await startWebhookReceiver(port);
    kit.onDispose(() => receiver.close());
    return receiver;
  });
}

function describeNotification(notification: ReceivedNotification): string {
  return `${notification.method} ${notification.path} ${notification.body.toString("utf8").slice(0, 120)}`;
}

/** The notification of the SKU skus.create made, awaited once. */
function skuNotification(kit: Kit): Promise<ReceivedNotification> {
  return kit.once("sku-notification", async () => {
    requireWrites(kit);
    if (kit.options.listen === undefined) skip("needs --listen PORT");
    if (!kit.state.changedCallback) skip("blocked: webhook-url.set did not point the callback URL at the receiver");
    const sku = kit.state.sku;
    if (!sku) skip("blocked: skus.create created no SKU to be notified of");
    const receiver = await receiverOf(kit);
    // The price notifications name the SKU's code too: only the SKU's own domain will do.
    const aboutSku = (notification: ReceivedNotification) => {
      const text = notification.body.toString("utf8");
      if (!text.includes(sku.code) && !text.includes(sku.id)) return false;
      try {
        return readPath(JSON.parse(text), "data.domain") === "portfolio.sku";
      } catch {
        return false;
      }
    };
    const { webhookTimeoutMs } = kit.options;
    const notification = await receiver.waitFor(aboutSku, webhookTimeoutMs, kit.signal);
    if (!notification) {
      if (kit.signal.aborted) skip("interrupted");
      const others = receiver.received.map(describeNotification).join(" | ");
      fail(
        `no portfolio.sku notification about ${sku.code} within ${webhookTimeoutMs / 1000} s; received ${receiver.received.length} other(s)${others ? `: ${others}` : ""}`,
      );
    }
    return notification;
  });
}

export const webhookSetCheck: Check = {
  name: "webhook-url.set",
  run: async (kit) => {
    requireWrites(kit);
    const receiver = await receiverOf(kit);
    // Only a URL the kit could read is one it can put back.
    const before = await prerequisite("webhook-url.get", () => callbackBeforeRun(kit));
    const url = kit.options.callbackUrl ?? receiver.url;
    const exchange = await kit.api({ method: "POST", path: ENDPOINTS.setWebhookUrl.path, json: { url } });
    if (exchange.status >= 200 && exchange.status < 300) kit.state.changedCallback = { previous: before.url, receiverUrl: url };
    // "The URL is validated": a platform elsewhere cannot call this machine's 127.0.0.1.
    const hint = kit.options.callbackUrl
      ? ""
      : "; if the platform cannot reach 127.0.0.1, give --callback-url (a public URL that reaches --listen, e.g. a tunnel)";
    ensure(exchange.status === 200, () => `${describeExchange(exchange)}${hint}`);
    const answer = webhookUrlSetResponseSchema.safeParse(exchange.json);
    if (!answer.success)
      fail(`${requestLine(exchange)} answered 200 without the spec's {message, url}: ${describeZodFailure(answer.error)}`);
    ensure(answer.data.url === url, `${requestLine(exchange)} answered url ${answer.data.url}; sent ${url}`);
    const now = await readCallbackNow(kit);
    ensure(now.url === url, `after setting it, ${requestLine(now.exchange)} answered ${String(now.url)}`);
    return `set to the kit's receiver (${url}) and read back`;
  },
};

export const webhookDeliveryChecks: readonly Check[] = [
  {
    name: "webhooks.notification",
    run: async (kit) => {
      const notification = await skuNotification(kit);
      const sku = kit.state.sku;
      let json: unknown;
      try {
        json = JSON.parse(notification.body.toString("utf8"));
      } catch {
        fail(`the notification body is not JSON: ${describeNotification(notification)}`);
      }
      const message = webhookMessageSchema.safeParse(json);
      if (!message.success) fail(`the notification is not {data:{domain, status, …}}: ${describeZodFailure(message.error)}`);
      const { data } = message.data;
      ensure(
        data.domain === "portfolio.sku" && data.status === "created",
        `the notification about ${sku?.code} is ${data.domain}/${data.status}; expected portfolio.sku/created`,
      );
      return `received {data:{domain: portfolio.sku, status: created, …}} about ${sku?.code}`;
    },
  },
  {
    name: "webhooks.signature",
    run: async (kit) => {
      const notification = await prerequisite("webhooks.notification", () => skuNotification(kit));
      const verdict = verifySignature(notification.body, notification.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()], kit.options.token);
      if (!verdict.valid) fail(`${WEBHOOK_SIGNATURE_HEADER} of the notification: ${verdict.reason}`);
      return `${WEBHOOK_SIGNATURE_HEADER} is Base64(HMAC-SHA256(raw body, access token))`;
    },
  },
];

export const webhookRestoreCheck: Check = {
  name: "webhook-url.restore",
  cleanup: true,
  run: async (kit) => {
    const change = kit.state.changedCallback;
    if (!change) skip("the callback URL was not changed");
    const { previous } = change;
    const stuck = `the callback URL may still be the kit's receiver: set it back${previous ? ` to ${previous}` : " (none was set)"} yourself`;
    if (previous === null) {
      const exchange = await kit.api({ method: "DELETE", path: ENDPOINTS.deleteWebhookUrl.path });
      ensure(exchange.status === 200, () => `${describeExchange(exchange)}; ${stuck}`);
      const answer = webhookUrlDeleteResponseSchema.safeParse(exchange.json);
      if (!answer.success) fail(`${requestLine(exchange)} answered 200 without the spec's {message}: ${describeZodFailure(answer.error)}`);
    } else {
      const exchange = await kit.api({ method: "POST", path: ENDPOINTS.setWebhookUrl.path, json: { url: previous } });
      ensure(exchange.status === 200, () => `${describeExchange(exchange)}; ${stuck}`);
    }
    const now = await readCallbackNow(kit);
    ensure(now.url === previous, `after restoring, ${requestLine(now.exchange)} answered ${String(now.url)}; ${stuck}`);
    return previous === null ? "removed with DELETE: no callback URL, as before the run" : "the previous callback URL is set again";
  },
};
