// Not server-only: the home page and lib/data both use it.
import { z } from "zod";

export const notificationsAtConnectSchema = z.enum(["on", "already", "elsewhere", "unknown"]);
export type NotificationsAtConnect = z.infer<typeof notificationsAtConnectSchema>;
