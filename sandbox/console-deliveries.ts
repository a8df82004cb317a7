// The console's home page: the webhook delivery log, newest first, filtered by seller, domain,
// event status and outcome, with a Resend button per delivery (sandbox/console.ts routes it).
import { webhookMessageSchema } from "@marketplace/api/schemas/webhook";
import { WEBHOOK_DOMAINS } from "@marketplace/api/values";
import { DELIVERY_LOG_PAGE_SIZE, DELIVERY_OUTCOMES, EVENT_STATUSES, type DeliveryLogQuery, type InputProblem } from "./console-forms";
import { CONSOLE_HOME, consolePage, describedBy, fieldError, html, options, type SafeHtml } from "./console-html";
import type { SandboxContext } from "./context";
import type { WebhookDelivery } from "./webhooks";

export type DeliveryFilters = Pick<DeliveryLogQuery, "seller" | "domain" | "status" | "outcome">;

/** The log's URL for these filters (and page); what the filter form, the pager and Resend's redirect use. */
export function deliveryLogUrl(filters: DeliveryFilters, extra: { page?: number; notice?: string } = {}): string {
  const params = new URLSearchParams();
  for (const key of ["seller", "domain", "status", "outcome"] as const) {
    const value = filters[key];
    if (value !== undefined) params.set(key, value);
  }
  if (extra.page !== undefined && extra.page > 1) params.set("page", String(extra.page));
  if (extra.notice !== undefined) params.set("notice", extra.notice);
  const query = params.toString();
  return query ? `${CONSOLE_HOME}?${query}` : CONSOLE_HOME;
}

/** The seller a filter or form names: an e-mail (login) or a user id, as the control API accepts. */
export function findSeller(ctx: SandboxContext, seller: string) {
  return ctx.store.findUserByLogin(seller) ?? ctx.store.usersById.get(seller);
}

export function sellerDatalist(ctx: SandboxContext): SafeHtml {
  const emails = [...ctx.store.usersById.values()].map((user) => user.email);
  return html`<datalist id="sellers">${emails.map((email) => html`<option value="${email}"></option>`)}</datalist>`;
}

/** What a delivery is about, read from its body: the order (and delivery) or the resource id and code. */
function subjectOf(delivery: WebhookDelivery): SafeHtml {
  let parsed: unknown;
  try {
    parsed = JSON.parse(delivery.body);
  } catch {
    return html`<span class="muted">—</span>`;
  }
  const message = webhookMessageSchema.safeParse(parsed);
  if (!message.success) return html`<span class="muted">—</span>`;
  const data = message.data.data;
  if ("order_id" in data) {
    return html`order <a href="/_sandbox/console/orders?order=${data.order_id}"><code>${data.order_id}</code></a>${
      data.delivery_id ? html`<br>delivery <code>${data.delivery_id}</code>` : ""
    }`;
  }
  return html`<code>${data.id}</code>${data.code ? html`<br>code <code>${data.code}</code>` : ""}`;
}

function outcomeOf(delivery: WebhookDelivery, maxAttempts: number): SafeHtml {
  const last = delivery.attempts.at(-1);
  const lastResult = last ? (last.responseStatus !== null ? `HTTP ${last.responseStatus}` : (last.error ?? "no answer")) : null;
  return html`<span class="outcome outcome-${delivery.state}">${delivery.state}</span>
<br><small>${delivery.attempts.length === 1 ? "1 attempt" : `${delivery.attempts.length} attempts`} of ${maxAttempts}${lastResult ? html`; last: ${lastResult}` : ""}</small>
${delivery.nextAttemptAt ? html`<br><small>next attempt ${delivery.nextAttemptAt}</small>` : ""}`;
}

function detailsOf(delivery: WebhookDelivery): SafeHtml {
  const attempts = delivery.attempts.map(
    (attempt) =>
      html`<tr><td data-label="#">${attempt.attempt}</td><td data-label="Started">${attempt.startedAt}</td><td data-label="Duration">${attempt.durationMs} ms</td><td data-label="HTTP">${attempt.responseStatus ?? "—"}</td><td data-label="Error">${attempt.error ?? ""}</td></tr>`,
  );
  return html`<details><summary>Body and attempts</summary>
<p><small>Event <code>${delivery.eventId}</code>; signature <code>${delivery.signature}</code></small></p>
<pre>${delivery.body}</pre>
${
  attempts.length > 0
    ? html`<table><thead><tr><th>#</th><th>Started</th><th>Duration</th><th>HTTP</th><th>Error</th></tr></thead><tbody>${attempts}</tbody></table>`
    : html`<p><small>No attempt yet.</small></p>`
}
</details>`;
}

function resendForm(delivery: WebhookDelivery, filters: DeliveryFilters): SafeHtml {
  const hidden = (["seller", "domain", "status", "outcome"] as const).map((key) => {
    const value = filters[key];
    return value === undefined ? "" : html`<input type="hidden" name="${key}" value="${value}">`;
  });
  return html`<form method="post" action="/_sandbox/console/resend"><input type="hidden" name="delivery" value="${delivery.id}">${hidden}<button type="submit">Resend</button></form>`;
}

function deliveryRow(ctx: SandboxContext, delivery: WebhookDelivery, filters: DeliveryFilters): SafeHtml {
  const seller = ctx.store.usersById.get(delivery.userId)?.email ?? delivery.userId;
  return html`<tr data-delivery="${delivery.id}">
<td data-label="Delivery"><small>${delivery.createdAt}</small><br><code>${delivery.id}</code>${delivery.resendOf ? html`<br><small>resend of <code>${delivery.resendOf}</code></small>` : ""}</td>
<td data-label="Seller / application"><a href="${deliveryLogUrl({ ...filters, seller })}">${seller}</a><br><small>${delivery.clientId}</small></td>
<td data-label="Event">${delivery.domain}<br><strong>${delivery.status}</strong></td>
<td data-label="About">${subjectOf(delivery)}</td>
<td data-label="Callback URL"><code>${delivery.url}</code></td>
<td data-label="Outcome">${outcomeOf(delivery, ctx.webhooks.maxAttempts)}</td>
<td data-label="Actions">${resendForm(delivery, filters)}${detailsOf(delivery)}</td>
</tr>`;
}

export interface DeliveryLogView {
  filters: DeliveryFilters;
  page: number;
  notice?: string | undefined;
  /** Invalid filters: the problem, and the raw values to show back in the form. */
  problem?: InputProblem | undefined;
  typed?: Partial<Record<keyof DeliveryFilters, string>>;
}

/** Renders the log; a seller no one has is an input problem too (400). */
export function deliveryLogPage(ctx: SandboxContext, view: DeliveryLogView): { status: number; html: string } {
  let problem = view.problem;
  const { filters } = view;
  const seller = filters.seller === undefined ? undefined : findSeller(ctx, filters.seller);
  if (filters.seller !== undefined && !seller) {
    problem = {
      message: `Please correct: Seller: no seller has the e-mail or id ${filters.seller}.`,
      fieldErrors: { seller: "no seller has this e-mail or id" },
    };
  }
  const typed = (key: keyof DeliveryFilters) => view.typed?.[key] ?? filters[key];
  const errors = problem?.fieldErrors ?? {};

  let rows: SafeHtml[] = [];
  let total = 0;
  const page = view.page;
  if (!problem) {
    const all = ctx.webhooks.list();
    const matching: WebhookDelivery[] = [];
    // Newest first: the log is oldest first.
    for (let index = all.length - 1; index >= 0; index--) {
      const delivery = all[index];
      if (!delivery) continue;
      if (seller && delivery.userId !== seller.id) continue;
      if (filters.domain !== undefined && delivery.domain !== filters.domain) continue;
      if (filters.status !== undefined && delivery.status !== filters.status) continue;
      if (filters.outcome !== undefined && delivery.state !== filters.outcome) continue;
      matching.push(delivery);
    }
    total = matching.length;
    rows = matching
      .slice((page - 1) * DELIVERY_LOG_PAGE_SIZE, page * DELIVERY_LOG_PAGE_SIZE)
      .map((delivery) => deliveryRow(ctx, delivery, filters));
  }

  const filterForm = html`<form method="get" action="${CONSOLE_HOME}" class="inline" aria-label="Filter deliveries">
<label>Seller<input type="text" name="seller" list="sellers" value="${typed("seller") ?? ""}" placeholder="e-mail or user id"${describedBy("seller-error", errors.seller)}>${fieldError("seller-error", errors.seller)}</label>
<label>Domain<select name="domain"${describedBy("domain-error", errors.domain)}>${options(Object.keys(WEBHOOK_DOMAINS), typed("domain"), "any")}</select>${fieldError("domain-error", errors.domain)}</label>
<label>Status<select name="status"${describedBy("status-error", errors.status)}>${options(EVENT_STATUSES, typed("status"), "any")}</select>${fieldError("status-error", errors.status)}</label>
<label>Outcome<select name="outcome"${describedBy("outcome-error", errors.outcome)}>${options(DELIVERY_OUTCOMES, typed("outcome"), "any")}</select>${fieldError("outcome-error", errors.outcome)}</label>
<button type="submit">Filter</button> <a href="${CONSOLE_HOME}">Clear filters</a>
</form>${sellerDatalist(ctx)}`;

  const first = (page - 1) * DELIVERY_LOG_PAGE_SIZE + 1;
  const last = Math.min(total, page * DELIVERY_LOG_PAGE_SIZE);
  const pager = html`<div class="pager">
<span data-testid="delivery-count">${total === 0 ? "No deliveries match." : rows.length === 0 ? `No deliveries on page ${page} (${total} match).` : `Deliveries ${first}–${last} of ${total}`}</span>
${page > 1 ? html`<a href="${deliveryLogUrl(filters, { page: page - 1 })}" rel="prev">Newer</a>` : ""}
${last < total ? html`<a href="${deliveryLogUrl(filters, { page: page + 1 })}" rel="next">Older</a>` : ""}
</div>`;

  const table = rows.length
    ? html`<table><thead><tr><th scope="col">Delivery</th><th scope="col">Seller / application</th><th scope="col">Event</th><th scope="col">About</th><th scope="col">Callback URL</th><th scope="col">Outcome</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table>`
    : html``;

  const body = html`<section aria-label="Filters">${filterForm}</section>
<section aria-label="Delivery log">
<p><small>Every webhook notification the sandbox sent or will send (the last ${ctx.config.deliveryLogSize}), newest first. A delivery is retried up to ${ctx.webhooks.maxAttempts} attempts; <strong>Resend</strong> sends the same event again as a new delivery (signed when attempted, like any). JSON: <code>GET /_sandbox/deliveries</code>.</small></p>
${problem ? "" : pager}
${table}
</section>`;
  return {
    status: problem ? 400 : 200,
    html: consolePage({
      title: "Webhook deliveries",
      section: "deliveries",
      now: ctx.clock.nowIso(),
      notice: view.notice,
      error: problem?.message,
      body,
    }),
  };
}
