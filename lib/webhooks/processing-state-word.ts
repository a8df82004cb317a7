// A stored event's processing state as the seller reads it (`webhooks.processingStates.<state>`,
// the words of the event log's filter too). Plain module: the event log table and the event page
// both use it.
import type { useTranslations } from "next-intl";
import { PROCESSING_STATES } from "@/lib/webhooks/event-params";

type ProcessingState = (typeof PROCESSING_STATES)[number];

const isProcessingState = (state: string): state is ProcessingState => (PROCESSING_STATES as readonly string[]).includes(state);

/** The state's word; a state this dashboard does not know (the column is free text) as it is stored. */
export function processingStateWord(t: ReturnType<typeof useTranslations<"webhooks">>, state: string): string {
  return isProcessingState(state) ? t(`processingStates.${state}`) : state;
}
