// A stored event's processing state as the seller reads it (`webhooks.processingStates.<state>`,
// the words of the event log's filter too). Plain module: the event log table and the event page
// both use it. Unlike the platform's codes (lib/words/), the state is this dashboard's own column,
// so its words stay with the Webhooks pages.
import type { useTranslations } from "next-intl";
import { PROCESSING_STATES } from "@/lib/webhooks/event-params";
import { isOneOf } from "@/lib/words/words";

/** The state's word; a state this dashboard does not know (the column is free text) as it is stored. */
export function processingStateWord(t: ReturnType<typeof useTranslations<"webhooks">>, state: string): string {
  return isOneOf(PROCESSING_STATES, state) ? t(`processingStates.${state}`) : state;
}
