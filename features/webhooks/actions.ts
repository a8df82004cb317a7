"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionState } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { recordAudit } from "@/lib/audit/audit.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { shopPath } from "@/lib/shops/paths";
import { withPlatform } from "@/lib/platform/platform.server";
import type { PlatformProblem } from "@/lib/platform-problem";
import { webhookUrlSchema } from "@marketplace/api/schemas/webhook";
import { describeProblem } from "@/lib/platform-problem";
import { rotateWebhookKey } from "@/features/webhooks/receive/receivers.server";
import { requeueDeadEvents } from "@/features/webhooks/process/queue.server";
import { getWebhookEvent } from "@/features/webhooks/events/webhook-events.server";
import { reprocessWebhookEvent, sweepSoon } from "@/features/webhooks/process/process.server";
import { receiverUrlFor } from "@/lib/shops/receiver-url";
import { callbackTargetOf } from "@/lib/shops/callback-target";
import { recordCallbackTarget } from "@/lib/shops/shop-attention.server";

/** A failed custom URL comes back, so the form keeps it for another try. */
export type WebhookActionState = ActionState<null, { url: string }>;

type ActionWords = Awaited<ReturnType<typeof getTranslations<"webhooks.actions">>>;

async function actionWords() {
  const [t, problems] = await Promise.all([getTranslations("webhooks.actions"), getTranslations("problems")]);
  /** Endpoint 10's 400 is about the URL itself (spec: Webhook URL endpoint responses). */
  const describeUrlProblem = (problem: PlatformProblem): string => {
    if (problem.kind === "error" && problem.status === 400) return t("urlRejected", { message: problem.message });
    return describeProblem(problem, problems, "changeCallbackUrl");
  };
  return { t, describeUrlProblem };
}

/** webhookUrlSchema's messages are English (it also checks what we send the platform): told apart by code. */
function urlFieldErrors(error: z.ZodError, t: ActionWords): string[] {
  return error.issues
    .filter((issue) => issue.path[0] === "url")
    .map((issue) => (issue.code === "too_big" ? t("urlTooLong") : t("urlNotAbsolute")));
}

const settingsForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("use-dashboard") }),
  z.object({ intent: z.literal("set-custom"), url: z.string().trim().pipe(webhookUrlSchema) }),
  z.object({ intent: z.literal("remove") }),
]);

/** One action for the three intents, so the page shows the latest outcome. */
export async function updateWebhookSettingsAction(
  shopId: string,
  _previous: WebhookActionState,
  formData: FormData,
): Promise<WebhookActionState> {
  const { shop, person } = await requireShop(shopId, "webhooks.manage");
  const { t, describeUrlProblem } = await actionWords();
  const submittedUrl = String(formData.get("url") ?? "");
  const parsed = settingsForm.safeParse({ intent: formData.get("intent"), url: submittedUrl });
  if (!parsed.success) {
    const url = urlFieldErrors(parsed.error, t);
    return failed(url.length > 0 ? t("invalidUrl") : t("unknownRequest"), {
      fieldErrors: url.length > 0 ? { url } : {},
      data: { url: submittedUrl },
    });
  }
  const input = parsed.data;
  const before = await currentCallbackUrl(shop);
  const audit = (url: string | null) =>
    recordAudit({
      shopId: shop.id,
      person,
      action: "webhooks.settings",
      before: before === undefined ? null : callbackTargetOf(before),
      after: callbackTargetOf(url),
    });

  if (input.intent === "remove") {
    const result = await withPlatform(shop, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
    if (!result.ok) return failed(describeUrlProblem(result.problem), { problem: result.problem });
    await recordCallbackTarget(shop.id, false);
    await audit(null);
    revalidatePath(shopPath(shop.id, "/webhooks"));
    return succeeded(t("removed"), null);
  }

  const url = input.intent === "use-dashboard" ? receiverUrlFor(shop.connection.webhookKey) : input.url;
  const result = await withPlatform(shop, "setWebhookUrl", (client) => client.setWebhookUrl(url));
  if (!result.ok) {
    return failed(describeUrlProblem(result.problem), {
      problem: result.problem,
      ...(input.intent === "set-custom" ? { data: { url } } : {}),
    });
  }
  await recordCallbackTarget(shop.id, input.intent === "use-dashboard");
  await audit(result.data.url);
  revalidatePath(shopPath(shop.id, "/webhooks"));
  return succeeded(t("nowGoTo", { url: result.data.url }), null);
}

/** For the audit log; undefined when the platform could not say. */
async function currentCallbackUrl(shop: CurrentShop): Promise<string | null | undefined> {
  const current = await withPlatform(shop, "getWebhookUrl", (client) => client.getWebhookUrl());
  return current.ok ? current.data.url : undefined;
}

const eventIdSchema = z.string().min(1).max(100);

export async function processAgainAction(shopId: string, eventId: string): Promise<WebhookActionState> {
  const { shop, person } = await requireShop(shopId, "events.processAgain");
  const { t } = await actionWords();
  const id = eventIdSchema.safeParse(eventId);
  if (!id.success) return failed(t("noSuchEvent"));
  const result = await reprocessWebhookEvent(shop.id, id.data);
  if (result === "missing") return failed(t("noSuchEvent"));
  if (result === "busy") return failed(t("busy"));
  await recordAudit({ shopId: shop.id, person, action: "event.processAgain", subject: id.data });
  revalidatePath(shopPath(shop.id, `/webhooks/events/${id.data}`));
  const event = await getWebhookEvent(shop.id, id.data);
  if (event?.processingState === "processed" || event?.processingState === "skipped") {
    return succeeded(t("processedAgain"), null);
  }
  return failed(t("failedAgain", { error: event?.processingError ?? t("unknownError") }));
}

/** Every dead event gets a fresh budget of attempts. */
export async function processAllDeadAction(shopId: string): Promise<WebhookActionState> {
  const { shop, person } = await requireShop(shopId, "events.processAgain");
  const { t } = await actionWords();
  const count = await requeueDeadEvents(shop.id);
  if (count > 0) {
    sweepSoon();
    await recordAudit({ shopId: shop.id, person, action: "event.processAllDead", after: { count } });
  }
  revalidatePath(shopPath(shop.id, "/webhooks"), "layout");
  return count === 0 ? succeeded(t("noDeadEvents"), null) : succeeded(t("deadRequeued", { count }), null);
}

/** A leaked URL stops working at once; the platform's callback moves only if it pointed at the old one. */
export async function rotateReceiverAction(shopId: string): Promise<WebhookActionState> {
  const { shop, person } = await requireShop(shopId, "webhooks.manage");
  const { t, describeUrlProblem } = await actionWords();
  const oldUrl = receiverUrlFor(shop.connection.webhookKey);
  const current = await withPlatform(shop, "getWebhookUrl", (client) => client.getWebhookUrl());
  const newUrl = receiverUrlFor(await rotateWebhookKey(shop.id));
  await recordAudit({ shopId: shop.id, person, action: "webhooks.rotate" });
  revalidatePath(shopPath(shop.id, "/webhooks"));
  if (!current.ok) {
    return failed(t("rotatedUnchecked", { problem: describeUrlProblem(current.problem) }), { problem: current.problem });
  }
  if (current.data.url !== oldUrl) return succeeded(t("rotated"), null);
  const moved = await withPlatform(shop, "setWebhookUrl", (client) => client.setWebhookUrl(newUrl));
  if (!moved.ok) {
    // It still points at the old receiver, which no longer answers.
    await recordCallbackTarget(shop.id, false);
    return failed(t("rotatedNotMoved", { problem: describeUrlProblem(moved.problem) }), { problem: moved.problem });
  }
  await recordCallbackTarget(shop.id, true);
  return succeeded(t("rotatedAndMoved"), null);
}
