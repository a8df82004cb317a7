// What connecting did to the platform's callback URL. Plain module: the home page and lib/data
// both use it. Each outcome's sentence is `webhooks.notificationsAtConnect.<outcome>` in
// messages/<locale>/webhooks.json.
import { z } from "zod";

export const notificationsAtConnectSchema = z.enum(["on", "already", "elsewhere", "unknown"]);
export type NotificationsAtConnect = z.infer<typeof notificationsAtConnectSchema>;
