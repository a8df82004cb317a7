"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSeller } from "@/lib/auth/session";
import { withPlatform } from "@/lib/data/platform";
import type { PlatformProblem } from "@/lib/data/platform";
import { webhookUrlSchema } from "@/lib/marketplace/schemas/webhook";
import { reprocessWebhookEvent } from "@/lib/webhooks/process";
import { receiverUrlFor } from "@/lib/webhooks/receiver-url";

export type WebhookActionState =
  | { status: "idle" }
  | { status: "success"; message: string }
  | { status: "error"; message: string; fieldErrors?: { url?: string[] }; problem?: PlatformProblem };

/** Explains a failed call to endpoint 10 (spec: Webhook URL endpoint responses). */
function describeProblem(problem: PlatformProblem): string {
  if (problem.kind === "reconnect") return "The marketplace no longer accepts this dashboard's access. Reconnect and try again.";
  if (problem.kind === "missing_scope") return `The marketplace requires the ${problem.scopes.join(", ")} permission for this.`;
  if (problem.status === 400) return `The marketplace rejected the URL as invalid or unreachable: ${problem.message}`;
  if (problem.status !== null && problem.status >= 500) return "The marketplace had a server error. Try again in a moment.";
  return problem.message;
}

async function setCallbackUrl(url: string): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const result = await withPlatform(seller, "setWebhookUrl", (client) => client.setWebhookUrl(url));
  revalidatePath("/webhooks");
  if (!result.ok) return { status: "error", message: describeProblem(result.problem), problem: result.problem };
  return { status: "success", message: `Notifications now go to ${result.data.url}.` };
}

export async function pointWebhooksToDashboardAction(): Promise<WebhookActionState> {
  const seller = await requireSeller();
  return setCallbackUrl(receiverUrlFor(seller.connection.webhookKey));
}

const customUrlForm = z.object({ url: z.string().trim().pipe(webhookUrlSchema) });

export async function setCustomWebhookUrlAction(_previous: WebhookActionState, formData: FormData): Promise<WebhookActionState> {
  await requireSeller();
  const parsed = customUrlForm.safeParse({ url: formData.get("url") ?? "" });
  if (!parsed.success) {
    return { status: "error", message: "Enter a valid http(s) URL.", fieldErrors: z.flattenError(parsed.error).fieldErrors };
  }
  return setCallbackUrl(parsed.data.url);
}

export async function removeWebhookUrlAction(): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const result = await withPlatform(seller, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
  revalidatePath("/webhooks");
  if (!result.ok) return { status: "error", message: describeProblem(result.problem), problem: result.problem };
  return { status: "success", message: "The callback URL was removed: the marketplace sends no more notifications." };
}

const eventIdSchema = z.string().min(1).max(100);

export async function processAgainAction(eventId: string): Promise<WebhookActionState> {
  const seller = await requireSeller();
  const id = eventIdSchema.safeParse(eventId);
  if (!id.success || !(await reprocessWebhookEvent(seller.id, id.data))) {
    return { status: "error", message: "This event does not exist." };
  }
  revalidatePath(`/webhooks/events/${id.data}`);
  return { status: "success", message: "The event was processed again." };
}
