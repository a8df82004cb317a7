import { ORDER_STATUSES } from "@marketplace/api/values";
import { choicesFilter, defineTableParams, instantFilter, selectFilter, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";

export const ordersTable = defineTableParams({
  filters: {
    status: choicesFilter("orders.filters.status", ORDER_STATUSES, { optionLabels: "words.orderStatuses" }),
    id: textFilter("orders.filters.id", { mono: true }),
    customer: textFilter("orders.filters.customer"),
    from: instantFilter("orders.filters.from"),
    to: instantFilter("orders.filters.to"),
    /** Open orders due today or late, read from the order mirror (not a platform filter). */
    deadline: selectFilter("orders.filters.deadline", ["today", "late"], {
      emptyLabel: "orders.filters.deadlineAny",
      optionLabels: "orders.filters.deadlines",
    }),
  },
  sorts: ["created_at:desc", "created_at:asc", "updated_at:desc", "updated_at:asc"],
  sizes: [25, 50, 100, 200],
});

export type OrderFilters = StateOf<typeof ordersTable>;
