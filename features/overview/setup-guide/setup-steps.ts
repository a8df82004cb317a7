// The setup guide's rules (issue 40, point 13): what a good setup is, and whether the shop has it,
// from what its people actually did. Plain data in, plain data out: setup-guide.server.ts reads the
// facts, the components say them in the seller's words.
import type { Capability } from "@/lib/people/roles";
import type { CallbackTarget } from "@/lib/shops/callback-target";
import type { NotificationsAtConnect } from "@/lib/shops/notifications-status";

/**
 * Who sees the guide and may hide it: owners and managers, who can act on it (the Settings page
 * opens with the same capability). Operations and viewers set nothing up, so they do not see it.
 */
export const SETUP_GUIDE_CAPABILITY: Capability = "costs.change";

/** How many of the last 30 days' best sellers should have a cost. */
export const BEST_SELLERS = 5;

/** Where the platform sends the shop's notifications, as far as this dashboard knows. */
export type CallbackWhere = "here" | "elsewhere" | "none" | "unknown";

/**
 * The last thing the dashboard did to the callback URL: a change on the Webhooks page since
 * connecting (as its audit entry keeps it), else what connecting found and did.
 */
export function callbackWhere(atConnect: NotificationsAtConnect | null, changedSince: CallbackTarget | null): CallbackWhere {
  if (changedSince) {
    if ("receiver" in changedSince) return "here";
    return changedSince.url === null ? "none" : "elsewhere";
  }
  if (atConnect === "on" || atConnect === "already") return "here";
  if (atConnect === "elsewhere") return "elsewhere";
  return "unknown";
}

export interface BestSeller {
  sku: string;
  /** From the catalogue or the orders; null when the code has none. */
  name: string | null;
}

export interface SetupFacts {
  callback: CallbackWhere;
  /** The newest authentic notification received since the callback was last set (connecting, or the Webhooks page). */
  lastNotificationAt: Date | null;
  /** Most units first; null when the platform's orders could not be read. */
  bestSellers: BestSeller[] | null;
  /** The codes that have a cost now (of those asked about). */
  costed: ReadonlySet<string>;
  /** Whether any product of the shop has a cost: what counts when nothing sold in 30 days. */
  anyCost: boolean;
  members: number;
  /** Invitations not accepted, revoked or expired. */
  openInvitations: number;
  appOpenedAt: Date | null;
}

export type SetupStep =
  | { name: "notifications"; done: boolean; callback: CallbackWhere; lastNotificationAt: Date | null }
  | ({ name: "costs"; done: boolean } & (
      { state: "unknown" } | { state: "noSales"; anyCost: boolean } | { state: "sales"; bestSellers: BestSeller[]; missing: BestSeller[] }
    ))
  | { name: "team"; done: boolean; state: "team" | "invited" | "alone"; members: number }
  | { name: "phone"; done: boolean; openedAt: Date | null };

function notificationsStep(facts: SetupFacts): SetupStep {
  // A notification at this shop's receiver is signed with its token: proof that the platform sends
  // them here, even when connecting could not tell ("unknown").
  const pointsHere = facts.callback === "here" || facts.callback === "unknown";
  return {
    name: "notifications",
    done: pointsHere && facts.lastNotificationAt !== null,
    callback: facts.callback,
    lastNotificationAt: facts.lastNotificationAt,
  };
}

function costsStep({ bestSellers, costed, anyCost }: SetupFacts): SetupStep {
  if (bestSellers === null) return { name: "costs", done: false, state: "unknown" };
  // With no sale to rank, any cost entered is the step done: the seller knows where costs go.
  if (bestSellers.length === 0) return { name: "costs", done: anyCost, state: "noSales", anyCost };
  const missing = bestSellers.filter((product) => !costed.has(product.sku));
  return { name: "costs", done: missing.length === 0, state: "sales", bestSellers, missing };
}

function teamStep({ members, openInvitations }: SetupFacts): SetupStep {
  const state = members > 1 ? "team" : openInvitations > 0 ? "invited" : "alone";
  return { name: "team", done: state !== "alone", state, members };
}

/** The four steps, in the guide's order. */
export function setupSteps(facts: SetupFacts): SetupStep[] {
  return [
    notificationsStep(facts),
    costsStep(facts),
    teamStep(facts),
    { name: "phone", done: facts.appOpenedAt !== null, openedAt: facts.appOpenedAt },
  ];
}

export function doneCount(steps: readonly SetupStep[]): number {
  return steps.filter((step) => step.done).length;
}
