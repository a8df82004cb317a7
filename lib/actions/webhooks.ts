"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { failed, succeeded } from "@/lib/actions/action-state";
import type { ActionState } from "@/lib/actions/action-state";
import { requireSeller } from "@/lib/auth/session";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformProblem } from "@/lib/platform-problem";
import { webhookUrlSchema } from "@/lib/marketplace/schemas/webhook";
import { describeProblem } from "@/lib/platform-problem";
import { rotateWebhookKey } from "@/lib/data/sellers";
import { requeueDeadEvents } from "@/lib/data/webhook-queue";
import { getWebhookEvent } from "@/lib/data/webhook-events";
import { reprocessWebhookEvent, sweepSoon } from "@/lib/webhooks/process";
import { receiverUrlFor } from "@/lib/webhooks/receiver-url";

/** A failed attempt to set a custom URL carries the URL back, so the form keeps it for another try. */
export type WebhookActionState = ActionState<null, { url: string }>;

/** Endpoint 10's 400 means the URL itself (spec: Webhook URL endpoint responses); the rest as everywhere. */
function describeUrlProblem(problem: PlatformProblem): string {
  if (problem.kind === "error" && problem.status === 400) return `The marketplace rejected the URL as invalid or unreachable: ${problem.message}`;
  return describeProblem(problem, "change the callback URL");
}

const settingsForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("use-dashboard") }),
  z.object({ intent: z.literal("set-custom"), url: z.string().trim().pipe(webhookUrlSchema) }),
  z.object({ intent: z.literal("remove") }),
]);

/**
 * The Webhooks page's one action: point the callback URL at this dashboard, at a custom URL, or
 * remove it (spec: 10. Webhook callback URL). One action, so the page shows the latest outcome.
 */
export async function updateWebhookSettingsAction(_previous: WebhookActionState, formData: FormData): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const submittedUrl = String(formData.get("url") ?? "");
  const parsed = settingsForm.safeParse({ intent: formData.get("intent"), url: submittedUrl });
  if (!parsed.success) {
    const { url } = z.flattenError(parsed.error).fieldErrors as { url?: string[] };
    return failed(url ? "Enter a valid http(s) URL." : "Unknown request.", { fieldErrors: url ? { url } : {}, data: { url: submittedUrl } });
  }
  const input = parsed.data;

  if (input.intent === "remove") {
    const result = await withPlatform(seller, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
    if (!result.ok) return failed(describeUrlProblem(result.problem), { problem: result.problem });
    revalidatePath("/webhooks");
    return succeeded("The callback URL was removed: the marketplace sends no more notifications.", null);
  }

  const url = input.intent === "use-dashboard" ? receiverUrlFor(seller.connection.webhookKey) : input.url;
  const result = await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(url));
  if (!result.ok) {
    return failed(describeUrlProblem(result.problem), { problem: result.problem, ...(input.intent === "set-custom" ? { data: { url } } : {}) });
  }
  revalidatePath("/webhooks");
  return succeeded(`Notifications now go to ${result.data.url}.`, null);
}

const eventIdSchema = z.string().min(1).max(100);

export async function processAgainAction(eventId: string): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const id = eventIdSchema.safeParse(eventId);
  if (!id.success) return failed("This event does not exist.");
  const result = await reprocessWebhookEvent(seller.id, id.data);
  if (result === "missing") return failed("This event does not exist.");
  if (result === "busy") return failed("This event is being processed right now; try again in a moment.");
  revalidatePath(`/webhooks/events/${id.data}`);
  const event = await getWebhookEvent(seller.id, id.data);
  if (event?.processingState === "processed" || event?.processingState === "skipped") {
    return succeeded("The event was processed again.", null);
  }
  return failed(`Processing failed again: ${event?.processingError ?? "unknown error"}`);
}

/** "Process all dead again": every dead event of the seller is queued with a fresh budget of attempts. */
export async function processAllDeadAction(): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const count = await requeueDeadEvents(seller.id);
  if (count > 0) sweepSoon();
  revalidatePath("/webhooks/events");
  revalidatePath("/webhooks");
  return count === 0
    ? succeeded("There are no dead events.", null)
    : succeeded(`${count} dead event${count === 1 ? " is" : "s are"} being processed again.`, null);
}

/**
 * "Rotate receiver URL": a new receiver key, so the old URL (if it leaked) stops working at once;
 * the platform's callback URL is moved to the new one when it pointed at the old one.
 */
export async function rotateReceiverAction(): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const oldUrl = receiverUrlFor(seller.connection.webhookKey);
  const current = await withPlatform(seller, "getWebhookUrl", (client) => client.getWebhookUrl());
  const newUrl = receiverUrlFor(await rotateWebhookKey(seller.id));
  revalidatePath("/webhooks");
  if (!current.ok) {
    return failed(`A new receiver URL was made; the marketplace's callback URL could not be checked: ${describeUrlProblem(current.problem)}`, { problem: current.problem });
  }
  if (current.data.url !== oldUrl) return succeeded("A new receiver URL was made. The old one no longer accepts notifications.", null);
  const moved = await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(newUrl));
  if (!moved.ok) {
    return failed(`A new receiver URL was made, but the marketplace still points at the old one: ${describeUrlProblem(moved.problem)} Use "Use this dashboard" to try again.`, { problem: moved.problem });
  }
  return succeeded("A new receiver URL was made and the marketplace now notifies it. The old one no longer accepts notifications.", null);
}
