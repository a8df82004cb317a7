// The service worker: TypeScript checks it with neither the DOM library nor the webworker one
// (they cannot share a program), so tsconfig.json leaves it out; tests/e2e/push.spec.ts runs it.
// The dashboard's service worker (issue 41): it shows the push notifications the server sends
// (features/notifications/push) and opens what one is about when it is tapped. It caches nothing:
// every page is always the server's.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  if (!message || typeof message.title !== "string") return;
  // Only links on this dashboard are opened by a tap.
  const url =
    typeof message.url === "string" && new URL(message.url, self.location.origin).origin === self.location.origin ? message.url : "/inbox";
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: typeof message.body === "string" ? message.body : "",
      tag: typeof message.tag === "string" ? message.tag : undefined,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/inbox", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      // A dashboard tab already open goes to the order; else a new one opens there.
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin && "navigate" in client) {
          await client.focus();
          return client.navigate(url);
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
