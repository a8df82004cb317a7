import { testClockRoute } from "@/features/notifications";

export const POST = testClockRoute;
