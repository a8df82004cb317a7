"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSeller } from "@/lib/auth/session";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformProblem } from "@/lib/data/platform";
import { webhookUrlSchema } from "@/lib/marketplace/schemas/webhook";
import { describeProblem } from "@/lib/platform-problem-text";
import { rotateWebhookKey } from "@/lib/data/sellers";
import { requeueDeadEvents } from "@/lib/data/webhook-queue";
import { getWebhookEvent } from "@/lib/data/webhook-events";
import { reprocessWebhookEvent, sweepSoon } from "@/lib/webhooks/process";
import { receiverUrlFor } from "@/lib/webhooks/receiver-url";

export type WebhookActionState =
  | { status: "idle" }
  | { status: "success"; message: string }
  | { status: "error"; message: string; fieldErrors?: { url?: string[] }; problem?: PlatformProblem; url?: string };

/** Explains a failed call to endpoint 10 (spec: Webhook URL endpoint responses). */
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
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as { url?: string[] };
    return { status: "error", message: fieldErrors.url ? "Enter a valid http(s) URL." : "Unknown request.", fieldErrors, url: submittedUrl };
  }
  const input = parsed.data;

  if (input.intent === "remove") {
    const result = await withPlatform(seller, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
    if (!result.ok) return { status: "error", message: describeUrlProblem(result.problem), problem: result.problem };
    revalidatePath("/webhooks");
    return { status: "success", message: "The callback URL was removed: the marketplace sends no more notifications." };
  }

  const url = input.intent === "use-dashboard" ? receiverUrlFor(seller.connection.webhookKey) : input.url;
  const result = await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(url));
  if (!result.ok) {
    // The typed URL comes back so the form keeps it for another try.
    return { status: "error", message: describeUrlProblem(result.problem), problem: result.problem, url: input.intent === "set-custom" ? url : undefined };
  }
  revalidatePath("/webhooks");
  return { status: "success", message: `Notifications now go to ${result.data.url}.` };
}

const eventIdSchema = z.string().min(1).max(100);

export async function processAgainAction(eventId: string): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const id = eventIdSchema.safeParse(eventId);
  if (!id.success) return { status: "error", message: "This event does not exist." };
  const result = await reprocessWebhookEvent(seller.id, id.data);
  if (result === "missing") return { status: "error", message: "This event does not exist." };
  if (result === "busy") return { status: "error", message: "This event is being processed right now; try again in a moment." };
  revalidatePath(`/webhooks/events/${id.data}`);
  const event = await getWebhookEvent(seller.id, id.data);
  if (event?.processingState === "processed" || event?.processingState === "skipped") {
    return { status: "success", message: "The event was processed again." };
  }
  return { status: "error", message: `Processing failed again: ${event?.processingError ?? "unknown error"}` };
}

/** "Process all dead again": every dead event of the seller is queued with a fresh budget of attempts. */
export async function processAllDeadAction(): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const count = await requeueDeadEvents(seller.id);
  if (count > 0) sweepSoon();
  revalidatePath("/webhooks/events");
  revalidatePath("/webhooks");
  return count === 0
    ? { status: "success", message: "There are no dead events." }
    : { status: "success", message: `${count} dead event${count === 1 ? " is" : "s are"} being processed again.` };
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
    return { status: "error", message: `A new receiver URL was made; the marketplace's callback URL could not be checked: ${describeUrlProblem(current.problem)}` };
  }
  if (current.data.url !== oldUrl) return { status: "success", message: "A new receiver URL was made. The old one no longer accepts notifications." };
  const moved = await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(newUrl));
  if (!moved.ok) {
    return { status: "error", message: `A new receiver URL was made, but the marketplace still points at the old one: ${describeUrlProblem(moved.problem)} Use "Use this dashboard" to try again.` };
  }
  return { status: "success", message: "A new receiver URL was made and the marketplace now notifies it. The old one no longer accepts notifications." };
}
