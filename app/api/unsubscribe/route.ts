import { unsubscribeGetRoute, unsubscribePostRoute } from "@/features/notifications";

export const GET = unsubscribeGetRoute;
export const POST = unsubscribePostRoute;
