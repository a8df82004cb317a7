// Unlike the platform's codes (lib/words/), the state is our own column, so its words stay here.
import type { useTranslations } from "next-intl";
import { PROCESSING_STATES } from "@/features/webhooks/events/event-params";
import { isOneOf } from "@/lib/words/words";

/** An unknown state (the column is free text) reads as stored. */
export function processingStateWord(t: ReturnType<typeof useTranslations<"webhooks">>, state: string): string {
  return isOneOf(PROCESSING_STATES, state) ? t(`processingStates.${state}`) : state;
}
