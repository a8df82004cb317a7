// The sandbox console (sandbox/README.md, "Console"): server-rendered pages, no JavaScript needed.
// Every action does what the control API does through its own functions or routes, never a copy, so
// the two cannot disagree.
import { randomBytes } from "node:crypto";
import { Hono, type Context } from "hono";
import type { Order } from "@marketplace/api/schemas/order";
import { callControl, type ControlDispatch, type ControlResult } from "./console-control";
import { deliveryLogPage, deliveryLogUrl, findSeller } from "./console-deliveries";
import {
  clockFormSchema,
  consoleInput,
  createOrdersFormSchema,
  DELIVERY_FILTER_LABELS,
  deliveryLogQuerySchema,
  deliveryStatusFormSchema,
  describeProblems,
  FAULT_LABELS,
  faultsFormSchema,
  noticeQuerySchema,
  ORDER_FORM_LABELS,
  orderStatusFormSchema,
  ordersPageQuerySchema,
  resendFormSchema,
  resetFormSchema,
  shipmentStatusFormSchema,
  typed,
  type InputProblem,
} from "./console-forms";
import { CONSOLE_HOME, CONSOLE_PAGES_PREFIX, consolePage, consoleResponse, html, seeOther } from "./console-html";
import { sameOriginOnly } from "./console-origin";
import { clockPage, faultsPage, ordersPage, type RenderedPage } from "./console-pages";
import { resendDelivery } from "./console-resend";
import type { SandboxContext, SandboxEnv } from "./context";
import { moveDelivery, moveOrder, moveShipment } from "./control";
import { SandboxHttpError } from "./errors";

/**
 * Messages left by an action for the page it redirects to (`?notice=<id>`): kept in memory, not in
 * the URL, so a link cannot make the console say something it did not. A reset keeps them (the
 * reset's own notice must survive it); the oldest are forgotten beyond a few.
 */
class NoticeBoard {
  private readonly notices = new Map<string, string>();
  constructor(private readonly capacity = 100) {}

  post(message: string): string {
    const id = randomBytes(9).toString("base64url");
    this.notices.set(id, message);
    while (this.notices.size > this.capacity) {
      const oldest = this.notices.keys().next().value;
      if (oldest === undefined) break;
      this.notices.delete(oldest);
    }
    return id;
  }

  read(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.notices.get(id);
  }
}

function respond(page: RenderedPage): Response {
  return consoleResponse(page.status, page.html);
}

/** A refused control call as a page problem: the API's message, and its `details` next to the fields they name. */
function refusal(
  result: Extract<ControlResult<unknown>, { ok: false }>,
  labels: Record<string, string>,
): { problem: InputProblem; status: number } {
  const problem = result.details.length ? describeProblems(result.details, labels) : { message: result.message, fieldErrors: {} };
  return { problem, status: result.status };
}

function stringValues(raw: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(raw).map((key) => [key, typed(raw, key)]));
}

function plural(count: number, one: string, other: string): string {
  return `${count} ${count === 1 ? one : other}`;
}

export function consoleRoutes(ctx: SandboxContext, dispatch: ControlDispatch): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const notices = new NoticeBoard();
  const seeOtherWithNotice = (path: string, message: string) =>
    seeOther(`${path}${path.includes("?") ? "&" : "?"}notice=${notices.post(message)}`);

  routes.use(
    `${CONSOLE_PAGES_PREFIX}*`,
    sameOriginOnly(() =>
      consoleResponse(
        403,
        consolePage({
          title: "Request refused",
          section: "deliveries",
          now: ctx.clock.nowIso(),
          error: "This form was sent from another site. Use the console's own pages to change the sandbox.",
          body: html`<p><a href="${CONSOLE_HOME}">Back to the console</a></p>`,
        }),
      ),
    ),
  );

  routes.get("/_sandbox", (c) => c.redirect(CONSOLE_HOME, 301));

  // ---- delivery log ---------------------------------------------------------------------------

  routes.get(
    CONSOLE_HOME,
    consoleInput(
      "query",
      deliveryLogQuerySchema,
      (_c, problem, raw) => {
        const values = stringValues(raw);
        return respond(deliveryLogPage(ctx, { filters: {}, page: 1, problem, typed: values }));
      },
      DELIVERY_FILTER_LABELS,
    ),
    (c) => {
      const { notice, page, ...filters } = c.req.valid("query");
      return respond(deliveryLogPage(ctx, { filters, page: page ?? 1, notice: notices.read(notice) }));
    },
  );

  routes.post(
    "/_sandbox/console/resend",
    consoleInput(
      "form",
      resendFormSchema,
      (_c, problem) =>
        respond(
          deliveryLogPage(ctx, {
            filters: {},
            page: 1,
            problem: { ...problem, message: `The delivery cannot be resent. ${problem.message}` },
          }),
        ),
      { ...DELIVERY_FILTER_LABELS, delivery: "Delivery" },
    ),
    (c) => {
      const { delivery: id, ...filters } = c.req.valid("form");
      try {
        const copy = resendDelivery(ctx, id);
        return seeOtherWithNotice(deliveryLogUrl(filters), `Delivery ${id} sent again as delivery ${copy.id}.`);
      } catch (error) {
        if (!(error instanceof SandboxHttpError)) throw error;
        const page = deliveryLogPage(ctx, {
          filters,
          page: 1,
          problem: { message: `Delivery ${id} is not in the log (it may have been forgotten, or the sandbox reset).`, fieldErrors: {} },
        });
        return respond({ ...page, status: error.status });
      }
    },
  );

  // ---- orders -----------------------------------------------------------------------------------

  routes.get(
    "/_sandbox/console/orders",
    consoleInput("query", ordersPageQuerySchema, (_c, problem) => respond(ordersPage(ctx, { problem })), ORDER_FORM_LABELS),
    (c) => {
      const { seller, order, notice } = c.req.valid("query");
      return respond(ordersPage(ctx, { seller, order, notice: notices.read(notice) }));
    },
  );

  const ordersPath = (query: { seller?: string; order?: string }) => {
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const text = params.toString();
    return text ? `/_sandbox/console/orders?${text}` : "/_sandbox/console/orders";
  };

  routes.post(
    "/_sandbox/console/orders",
    consoleInput(
      "form",
      createOrdersFormSchema,
      (_c, problem, raw) => respond(ordersPage(ctx, { problem, typed: stringValues(raw) })),
      ORDER_FORM_LABELS,
    ),
    async (c) => {
      const form = c.req.valid("form");
      const result = await callControl<{ orders: Order[] }>(dispatch, c, "POST", "/_sandbox/orders", form);
      if (!result.ok) {
        return respond(
          ordersPage(ctx, { ...refusal(result, ORDER_FORM_LABELS), typed: { seller: form.seller, count: String(form.count) } }),
        );
      }
      const seller = findSeller(ctx, form.seller)?.email ?? form.seller;
      const ids = result.body.orders.map((order) => order.id);
      const shown = ids.length > 10 ? `${ids.slice(0, 10).join(", ")} and ${ids.length - 10} more` : ids.join(", ");
      const message = `Created ${plural(ids.length, "order", "orders")} for ${seller}: ${shown}.`;
      return seeOtherWithNotice(ordersPath({ seller, ...(ids.length === 1 ? { order: ids[0] } : {}) }), message);
    },
  );

  /**
   * A move through the control API's own function (`moveOrder`, `moveDelivery`, `moveShipment`):
   * then the order again, with the notice, or with its refusal (404 unknown, 409 not allowed now).
   */
  const move = (orderId: string, run: () => Order, done: string): Response => {
    const sellerOf = () => {
      const entry = ctx.store.orderById.get(orderId);
      return entry ? ctx.store.usersById.get(entry.userId)?.email : undefined;
    };
    try {
      run();
    } catch (error) {
      if (!(error instanceof SandboxHttpError)) throw error;
      const known = ctx.store.orderById.has(orderId);
      return respond(
        ordersPage(ctx, {
          problem: { message: `${error.message}.`, fieldErrors: {} },
          status: error.status,
          seller: sellerOf(),
          order: known ? orderId : undefined,
        }),
      );
    }
    return seeOtherWithNotice(ordersPath({ seller: sellerOf(), order: orderId }), done);
  };

  const invalidMove = (_c: Context, problem: InputProblem) => respond(ordersPage(ctx, { problem }));

  routes.post("/_sandbox/console/order-status", consoleInput("form", orderStatusFormSchema, invalidMove, ORDER_FORM_LABELS), (c) => {
    const { order, status } = c.req.valid("form");
    return move(order, () => moveOrder(ctx, order, status), `Order ${order} is now ${status}.`);
  });

  routes.post("/_sandbox/console/delivery-status", consoleInput("form", deliveryStatusFormSchema, invalidMove, ORDER_FORM_LABELS), (c) => {
    const { order, delivery, status } = c.req.valid("form");
    return move(order, () => moveDelivery(ctx, order, delivery, status), `Delivery ${delivery} of order ${order} is now ${status}.`);
  });

  routes.post("/_sandbox/console/shipment-status", consoleInput("form", shipmentStatusFormSchema, invalidMove, ORDER_FORM_LABELS), (c) => {
    const { order, delivery, status } = c.req.valid("form");
    return move(order, () => moveShipment(ctx, order, delivery, status), `Shipment ${delivery} of order ${order} is now ${status}.`);
  });

  // ---- faults -----------------------------------------------------------------------------------

  routes.get(
    "/_sandbox/console/faults",
    consoleInput("query", noticeQuerySchema, (_c, problem) => respond(faultsPage(ctx, { problem }))),
    (c) => respond(faultsPage(ctx, { notice: notices.read(c.req.valid("query").notice) })),
  );

  // What `POST /_sandbox/faults` does with the same schema (the form pipes into faultsPatchSchema).
  routes.post(
    "/_sandbox/console/faults",
    consoleInput(
      "form",
      faultsFormSchema,
      (_c, problem, raw) => respond(faultsPage(ctx, { problem, typed: stringValues(raw) })),
      FAULT_LABELS,
    ),
    (c) => {
      ctx.faults.apply(c.req.valid("form"));
      return seeOtherWithNotice("/_sandbox/console/faults", "Faults set.");
    },
  );

  routes.post("/_sandbox/console/faults/clear", () => {
    ctx.faults.clear();
    return seeOtherWithNotice("/_sandbox/console/faults", "Every fault cleared.");
  });

  // ---- clock and reset ----------------------------------------------------------------------------

  routes.get(
    "/_sandbox/console/clock",
    consoleInput("query", noticeQuerySchema, (_c, problem) => respond(clockPage(ctx, { problem }))),
    (c) => respond(clockPage(ctx, { notice: notices.read(c.req.valid("query").notice) })),
  );

  const CLOCK_LABELS = { advanceSeconds: "Seconds", seedOrders: "Seeded orders" };

  routes.post(
    "/_sandbox/console/clock",
    consoleInput(
      "form",
      clockFormSchema,
      (_c, problem, raw) => respond(clockPage(ctx, { problem, typed: stringValues(raw) })),
      CLOCK_LABELS,
    ),
    async (c) => {
      const { advanceSeconds } = c.req.valid("form");
      const result = await callControl<{ now: string }>(dispatch, c, "POST", "/_sandbox/clock", { advanceSeconds });
      if (!result.ok)
        return respond(clockPage(ctx, { ...refusal(result, CLOCK_LABELS), typed: { advanceSeconds: String(advanceSeconds) } }));
      return seeOtherWithNotice(
        "/_sandbox/console/clock",
        `Clock advanced by ${plural(advanceSeconds, "second", "seconds")}: sandbox time is now ${result.body.now}.`,
      );
    },
  );

  routes.post(
    "/_sandbox/console/reset",
    consoleInput(
      "form",
      resetFormSchema,
      (_c, problem, raw) => respond(clockPage(ctx, { problem, typed: stringValues(raw) })),
      CLOCK_LABELS,
    ),
    async (c) => {
      const body = c.req.valid("form");
      const result = await callControl(dispatch, c, "POST", "/_sandbox/reset", body);
      if (!result.ok)
        return respond(
          clockPage(ctx, {
            ...refusal(result, CLOCK_LABELS),
            typed: { seedOrders: body.seedOrders === undefined ? "" : String(body.seedOrders) },
          }),
        );
      return seeOtherWithNotice(
        "/_sandbox/console/clock",
        `Sandbox reset: everything reseeded, with ${plural(ctx.config.seedOrders, "order", "orders")} for seller@example.com.`,
      );
    },
  );

  return routes;
}
