// The console's other pages: orders (create, find, move an order or a delivery), faults (show,
// set, clear) and the clock (advance, reset). Each renders from the live state; the forms post to
// sandbox/console.ts, which calls the control API.
import type { Order } from "@marketplace/api/schemas/order";
import { deliveryStatusSchema, orderStatusSchema } from "@marketplace/api/schemas/order";
import { FAULT_LABELS, type InputProblem } from "./console-forms";
import { findSeller, sellerDatalist } from "./console-deliveries";
import { consolePage, describedBy, fieldError, html, options, type SafeHtml } from "./console-html";
import type { SandboxContext } from "./context";
import { DELIVERY_TRANSITIONS, ORDER_TRANSITIONS, SHIPPING_TRANSITIONS, shippingStatusSchema } from "./control";
import type { Faults } from "./faults";
import { isArrangedBySeller } from "./seed";

/** A page and the status to answer it with. */
export interface RenderedPage {
  status: number;
  html: string;
}

/** What every page may show besides its content: a notice left by the last action, or a problem with the last input. */
export interface PageMessages {
  notice?: string | undefined;
  problem?: InputProblem | undefined;
  /** The status of the failed action (400 invalid input, 404 unknown, 409 conflict); 200 without a problem. */
  status?: number;
  /** Raw form values to show back in their fields. */
  typed?: Record<string, string | undefined>;
}

const NEWEST_ORDERS_SHOWN = 20;

function pageStatus(messages: PageMessages): number {
  return messages.status ?? (messages.problem ? 400 : 200);
}

// ---------------------------------------------------------------------------------------------
// Orders

export interface OrdersView extends PageMessages {
  seller?: string | undefined;
  order?: string | undefined;
}

function nextOf<T extends string>(transitions: Record<T, readonly T[]>, current: string): readonly T[] {
  return (transitions as Record<string, readonly T[]>)[current] ?? [];
}

function orderPanel(ctx: SandboxContext, order: Order, userId: string): SafeHtml {
  const seller = ctx.store.usersById.get(userId)?.email ?? userId;
  const next = nextOf(ORDER_TRANSITIONS, order.status);
  const moveOrder = next.length
    ? html`<form method="post" action="/_sandbox/console/order-status" class="inline" aria-label="Move order">
<input type="hidden" name="order" value="${order.id}">
<label>Move order to<select name="status">${options(orderStatusSchema.options, next[0])}</select></label>
<button type="submit">Move order</button> <small>allowed next: ${next.join(", ")}</small>
</form>`
    : html`<p><small>${order.status} is a final status: the order does not move any more.</small></p>`;
  const deliveries = order.deliveries.map((delivery) => {
    // Two kinds move through two routes: the platform's delivery service (`order.delivery`) and a
    // shipment the seller arranges (`order.shipping`).
    const bySeller = isArrangedBySeller(delivery);
    const after = bySeller ? nextOf(SHIPPING_TRANSITIONS, delivery.status) : nextOf(DELIVERY_TRANSITIONS, delivery.status);
    const move =
      after.length === 0 || order.status === "cancelled"
        ? html`<small>${order.status === "cancelled" ? "the order is cancelled" : "final status"}</small>`
        : bySeller
          ? html`<form method="post" action="/_sandbox/console/shipment-status" class="inline" aria-label="Move shipment ${delivery.id}">
<input type="hidden" name="order" value="${order.id}"><input type="hidden" name="delivery" value="${delivery.id}">
<label>Move shipment to<select name="status">${options(shippingStatusSchema.options, after[0])}</select></label>
<button type="submit">Move shipment</button>
</form>`
          : html`<form method="post" action="/_sandbox/console/delivery-status" class="inline" aria-label="Move delivery ${delivery.id}">
<input type="hidden" name="order" value="${order.id}"><input type="hidden" name="delivery" value="${delivery.id}">
<label>Move delivery to<select name="status">${options(deliveryStatusSchema.options, after[0])}</select></label>
<button type="submit">Move delivery</button>
</form>`;
    return html`<tr data-order-delivery="${delivery.id}"><td data-label="Delivery"><code>${delivery.id}</code></td><td data-label="Arranged by">${bySeller ? "seller (order.shipping)" : "platform (order.delivery)"}</td><td data-label="Status"><strong>${delivery.status}</strong></td>
<td data-label="Posted">${delivery.shipping.posting_date ?? "—"}</td><td data-label="Delivered">${delivery.shipping.delivery_date ?? "—"}</td><td data-label="Tracking"><code>${delivery.shipping.tracking.number}</code></td><td data-label="Move">${move}</td></tr>`;
  });
  return html`<section aria-labelledby="order-heading" data-order="${order.id}">
<h2 id="order-heading">Order <code>${order.id}</code></h2>
<p>Seller <a href="/_sandbox/console/orders?seller=${encodeURIComponent(seller)}">${seller}</a> · status <strong data-testid="order-status">${order.status}</strong> · created ${order.created_at} · approved ${order.approved_at ?? "—"} · updated ${order.updated_at}
 · <a href="/_sandbox/?seller=${encodeURIComponent(seller)}">its seller's deliveries</a></p>
${moveOrder}
<h3>Deliveries</h3>
<table><thead><tr><th scope="col">Delivery</th><th scope="col">Arranged by</th><th scope="col">Status</th><th scope="col">Posted</th><th scope="col">Delivered</th><th scope="col">Tracking</th><th scope="col">Move</th></tr></thead>
<tbody>${deliveries}</tbody></table>
</section>`;
}

function newestOrders(ctx: SandboxContext, userId: string, email: string): SafeHtml {
  const items = ctx.store.ordersByUser.get(userId)?.items ?? [];
  const newest = items.slice(-NEWEST_ORDERS_SHOWN).reverse();
  const rows = newest.map(
    (
      order,
    ) => html`<tr data-order-row="${order.id}"><td data-label="Order"><a href="/_sandbox/console/orders?seller=${encodeURIComponent(email)}&amp;order=${order.id}"><code>${order.id}</code></a></td>
<td data-label="Status">${order.status}</td><td data-label="Created">${order.created_at}</td><td data-label="Deliveries">${order.deliveries.map((delivery) => delivery.status).join(", ")}</td></tr>`,
  );
  return html`<section aria-labelledby="newest-heading">
<h2 id="newest-heading">Newest orders of ${email}</h2>
<p><small>${items.length} orders in all; the ${Math.min(items.length, NEWEST_ORDERS_SHOWN)} newest by creation time.</small></p>
${rows.length ? html`<table><thead><tr><th scope="col">Order</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Deliveries</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No orders.</p>`}
</section>`;
}

export function ordersPage(ctx: SandboxContext, view: OrdersView): RenderedPage {
  const errors = view.problem?.fieldErrors ?? {};
  const typed = (name: string, fallback = "") => view.typed?.[name] ?? fallback;
  const entry = view.order === undefined ? undefined : ctx.store.orderById.get(view.order);
  // An order opened alone comes with its seller's newest orders.
  const sellerUser = view.seller === undefined ? (entry ? ctx.store.usersById.get(entry.userId) : undefined) : findSeller(ctx, view.seller);
  let problem = view.problem;
  let status = pageStatus(view);
  if (!problem && view.seller !== undefined && !sellerUser) {
    problem = { message: `No seller has the e-mail or id ${view.seller}.`, fieldErrors: {} };
    status = 404;
  } else if (!problem && view.order !== undefined && !entry) {
    problem = { message: `No order has the id ${view.order}.`, fieldErrors: {} };
    status = 404;
  }

  const create = html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create orders</h2>
<form method="post" action="/_sandbox/console/orders" class="inline">
<label>Seller<input type="text" name="seller" list="sellers" required value="${typed("seller", sellerUser?.email ?? "seller@example.com")}"${describedBy("create-seller-error", errors.seller)}>${fieldError("create-seller-error", errors.seller)}</label>
<label>Count<input type="number" name="count" min="1" max="1000" value="${typed("count", "1")}"${describedBy("create-count-error", errors.count)}>${fieldError("create-count-error", errors.count)}</label>
<button type="submit">Create orders</button>
</form>
<p><small>New orders start <code>new</code> with deliveries <code>created</code>; each sends <code>order.order</code>/<code>new</code>. JSON: <code>POST /_sandbox/orders</code>.</small></p>
${sellerDatalist(ctx)}
</section>`;

  const find = html`<section aria-labelledby="find-heading">
<h2 id="find-heading">Find orders</h2>
<form method="get" action="/_sandbox/console/orders" class="inline" aria-label="Show a seller's newest orders">
<label>Seller<input type="text" name="seller" list="sellers" value="${sellerUser?.email ?? view.seller ?? ""}"></label>
<button type="submit">Show orders</button>
</form>
<form method="get" action="/_sandbox/console/orders" class="inline" aria-label="Open an order">
<label>Order id<input type="text" name="order" value="${view.order ?? ""}" pattern="[0-9a-f]{24}" placeholder="24 hex characters"></label>
<button type="submit">Open order</button>
</form>
</section>`;

  const body = html`${entry ? orderPanel(ctx, entry.order, entry.userId) : ""}
${create}
${find}
${sellerUser ? newestOrders(ctx, sellerUser.id, sellerUser.email) : ""}`;
  return {
    status,
    html: consolePage({ title: "Orders", section: "orders", now: ctx.clock.nowIso(), notice: view.notice, error: problem?.message, body }),
  };
}

// ---------------------------------------------------------------------------------------------
// Faults

const FAULT_EFFECTS: Record<keyof Faults, string> = {
  errorRate: "share (0–1) of authorised API calls answered HTTP 500; the authorization request redirects with server_error",
  latencyMs: "delay before every /v1.0/ call, token exchange included",
  importDown: "SKU create answers HTTP 503, statusCode -5",
  rejectSkus: "a valid SKU is refused (HTTP 400, statusCode -4) with exactly these errors",
  rateLimitPerMinute: "calls per user per minute of sandbox time; beyond it HTTP 429",
  duplicateWebhooks: "every notification is delivered twice",
  dropWebhookRate: "share (0–1) of notifications never sent (logged as dropped)",
  reorderWebhooks: "deliveries due together start in random order",
  maintenance: "API calls answer 503; the authorization request redirects with temporarily_unavailable",
  failLabels: "these deliveries' labels (GET /_assets/labels/{id}) answer HTTP 503",
  labelLatencyMs: "delay before every label answer (GET /_assets/labels/{id})",
  userFaults:
    "per user (by e-mail): a delay before each API call, or HTTP 429 with a Retry-After; set with POST /_sandbox/faults (the form leaves it as it is)",
};

/** A list of ids (failLabels), as typed into its text area: one a line. */
function isIdList(value: Faults[keyof Faults]): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === "string");
}

function faultValue(value: Faults[keyof Faults]): string {
  if (value === null) return "none";
  if (isIdList(value)) return value.length === 0 ? "none" : value.join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function faultsPage(ctx: SandboxContext, view: PageMessages): RenderedPage {
  const faults = ctx.faults.current;
  const errors = view.problem?.fieldErrors ?? {};
  const keys = Object.keys(FAULT_EFFECTS) as (keyof Faults)[];
  // After a refused submission the fields show what was typed; otherwise the current faults.
  const shown = (key: keyof Faults): string => {
    if (view.typed) return view.typed[key] ?? "";
    const value = faults[key];
    if (value === null || value === false) return "";
    if (isIdList(value)) return value.join("\n");
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  };
  const checked = (key: keyof Faults) => (view.typed ? view.typed[key] === "on" : faults[key] === true);
  const rows = keys.map(
    (key) =>
      html`<tr data-fault="${key}"><th scope="row"><code>${key}</code></th><td data-label="Value"><strong>${faultValue(faults[key])}</strong></td><td data-label="Effect"><small>${FAULT_EFFECTS[key]}</small></td></tr>`,
  );
  const numberInput = (key: keyof Faults, attributes: SafeHtml) =>
    html`<label>${FAULT_LABELS[key] ?? key}<input type="text" inputmode="decimal" name="${key}" value="${shown(key)}"${attributes}${describedBy(`${key}-error`, errors[key])}>${fieldError(`${key}-error`, errors[key])}</label>`;
  const checkbox = (key: keyof Faults) =>
    html`<label class="check"><input type="checkbox" name="${key}"${checked(key) ? html` checked` : ""}${describedBy(`${key}-error`, errors[key])}> ${FAULT_LABELS[key] ?? key}${fieldError(`${key}-error`, errors[key])}</label>`;

  const body = html`<section aria-labelledby="current-heading">
<h2 id="current-heading">Current faults</h2>
<table><thead><tr><th scope="col">Fault</th><th scope="col">Value</th><th scope="col">Effect</th></tr></thead><tbody>${rows}</tbody></table>
<form method="post" action="/_sandbox/console/faults/clear"><p><button type="submit">Clear every fault</button></p></form>
</section>
<section aria-labelledby="set-heading">
<h2 id="set-heading">Set faults</h2>
<p><small>Submitting sets every fault to what the form shows: a blank field or an unchecked box is no fault. JSON: <code>POST /_sandbox/faults</code> merges only the fields it is given.</small></p>
<form method="post" action="/_sandbox/console/faults">
<p class="inline">${numberInput("errorRate", html` placeholder="0"`)} ${numberInput("latencyMs", html` placeholder="0"`)} ${numberInput("rateLimitPerMinute", html` placeholder="none"`)} ${numberInput("dropWebhookRate", html` placeholder="0"`)} ${numberInput("labelLatencyMs", html` placeholder="0"`)}</p>
<p>${checkbox("importDown")} ${checkbox("duplicateWebhooks")} ${checkbox("reorderWebhooks")} ${checkbox("maintenance")}</p>
<p><label for="rejectSkus">${FAULT_LABELS.rejectSkus} (JSON list of <code>{"field", "message"}</code>; blank = none)</label>
<textarea id="rejectSkus" name="rejectSkus" rows="3"${describedBy("rejectSkus-error", errors.rejectSkus)}>${shown("rejectSkus")}</textarea>${fieldError("rejectSkus-error", errors.rejectSkus)}</p>
<p><label for="failLabels">${FAULT_LABELS.failLabels} (delivery ids, one a line; blank = none)</label>
<textarea id="failLabels" name="failLabels" rows="3"${describedBy("failLabels-error", errors.failLabels)}>${shown("failLabels")}</textarea>${fieldError("failLabels-error", errors.failLabels)}</p>
<p><button type="submit">Set faults</button></p>
</form>
</section>`;
  return {
    status: pageStatus(view),
    html: consolePage({
      title: "Faults",
      section: "faults",
      now: ctx.clock.nowIso(),
      notice: view.notice,
      error: view.problem?.message,
      body,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Clock and reset

const QUICK_ADVANCES: readonly { seconds: number; label: string }[] = [
  { seconds: 60, label: "+1 minute" },
  { seconds: 601, label: "+10 minutes (codes expire)" },
  { seconds: 3600, label: "+1 hour" },
  { seconds: 86_400, label: "+1 day" },
];

export function clockPage(ctx: SandboxContext, view: PageMessages): RenderedPage {
  const errors = view.problem?.fieldErrors ?? {};
  const quick = QUICK_ADVANCES.map(
    (advance) => html`<button type="submit" name="advanceSeconds" value="${advance.seconds}">${advance.label}</button>`,
  );
  const body = html`<section aria-labelledby="clock-heading">
<h2 id="clock-heading">Clock</h2>
<p>Sandbox time <strong data-testid="sandbox-now">${ctx.clock.nowIso()}</strong>, ${ctx.clock.offsetSeconds} seconds ahead of real time.</p>
<p><small>Code and token expiry, new orders' timestamps, webhook retries and rate-limit windows follow it; a pending retry whose time has come is attempted at once. It only moves forward. JSON: <code>POST /_sandbox/clock</code>.</small></p>
<form method="post" action="/_sandbox/console/clock" class="inline" aria-label="Advance the clock">
<label>Seconds<input type="text" inputmode="numeric" name="advanceSeconds" value="${view.typed?.advanceSeconds ?? ""}" required${describedBy("advance-error", errors.advanceSeconds)}>${fieldError("advance-error", errors.advanceSeconds)}</label>
<button type="submit">Advance the clock</button>
</form>
<form method="post" action="/_sandbox/console/clock" aria-label="Advance the clock by a preset"><p class="inline">${quick}</p></form>
</section>
<section aria-labelledby="reset-heading">
<h2 id="reset-heading">Reset</h2>
<p>Reseeds everything: tokens, codes, callback URLs, SKUs, prices, orders, deliveries, faults and the clock. Integrations connected to the sandbox must connect again. When the sandbox keeps its state in a file (<code>SANDBOX_STATE_FILE</code>, as under <code>npm run dev</code>), the reset overwrites it, and <code>npm run dev</code> clears the dashboard's shops of the old sandbox. JSON: <code>POST /_sandbox/reset</code>.</p>
<form method="post" action="/_sandbox/console/reset" class="inline" aria-label="Reset the sandbox">
<label>Seeded orders<input type="text" inputmode="numeric" name="seedOrders" value="${view.typed?.seedOrders ?? ""}" placeholder="${ctx.config.seedOrders}"${describedBy("seed-error", errors.seedOrders)}>${fieldError("seed-error", errors.seedOrders)}</label>
<button type="submit">Reset the sandbox</button>
</form>
</section>`;
  return {
    status: pageStatus(view),
    html: consolePage({
      title: "Clock & reset",
      section: "clock",
      now: ctx.clock.nowIso(),
      notice: view.notice,
      error: view.problem?.message,
      body,
    }),
  };
}
