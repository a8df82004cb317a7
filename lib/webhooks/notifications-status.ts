// What connecting did to the platform's callback URL, and how the dashboard says it. Plain
// module: the home page and lib/data both use it.
import { z } from "zod";

export const notificationsAtConnectSchema = z.enum(["on", "already", "elsewhere", "unknown"]);
export type NotificationsAtConnect = z.infer<typeof notificationsAtConnectSchema>;

export const NOTIFICATIONS_AT_CONNECT_TEXT: Record<NotificationsAtConnect, string> = {
  on: "Notifications are on: none were set up, so connecting pointed the marketplace's callback URL at this dashboard. Order changes now arrive as they happen.",
  already: "Notifications are on: the marketplace's callback URL already pointed at this dashboard.",
  elsewhere:
    "Notifications go to another address, set outside this dashboard; it was left alone. To receive them here instead, use “Use this dashboard” on the Webhooks page.",
  unknown: "Whether notifications are on could not be checked when you connected: the Webhooks page shows it.",
};
