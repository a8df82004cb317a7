import { registerPushRoute, removePushRoute } from "@/features/notifications";

export const POST = registerPushRoute;
export const DELETE = removePushRoute;
