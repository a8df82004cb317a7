import { inboxRoute } from "@/features/inbox";

export const GET = inboxRoute;
