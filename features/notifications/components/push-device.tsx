"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, useTransition } from "react";

// "Receive notifications on this device" (issue 41), on the Account page. It registers the service
// worker (public/sw.js), asks the browser's permission, subscribes with the dashboard's VAPID key
// and hands the subscription to /api/push/subscriptions. On an iPhone push works once the dashboard
// is on the home screen; elsewhere a browser without push says so.

type State = "checking" | "unsupported" | "denied" | "off" | "on";
type Outcome = { tone: "done" | "error"; message: string } | null;

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

const supported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

/** Whether this browser receives the person's alerts now. */
async function currentState(): Promise<State> {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  try {
    const existing = await navigator.serviceWorker.getRegistration("/");
    return (await existing?.pushManager.getSubscription()) ? "on" : "off";
  } catch {
    return "off";
  }
}

export function PushDevice({ publicKey }: { publicKey: string }) {
  const t = useTranslations("notifications.device");
  const [state, setState] = useState<State>("checking");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, startWork] = useTransition();

  useEffect(() => {
    let cancelled = false;
    void currentState().then((next) => {
      if (!cancelled) setState(next);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  const turnOn = () =>
    startWork(async () => {
      setOutcome(null);
      try {
        const permission = await Notification.requestPermission();
        if (permission !== "granted") {
          setState(permission === "denied" ? "denied" : "off");
          return;
        }
        const worker = await registration();
        const subscription =
          (await worker.pushManager.getSubscription()) ??
          (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
        const answer = await fetch("/api/push/subscriptions", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(subscription.toJSON()),
        });
        if (!answer.ok) throw new Error(`registration answered ${answer.status}`);
        setState("on");
        setOutcome({ tone: "done", message: t("turnedOn") });
      } catch {
        setOutcome({ tone: "error", message: t("failed") });
      }
    });

  const turnOff = () =>
    startWork(async () => {
      setOutcome(null);
      try {
        const subscription = await (await navigator.serviceWorker.getRegistration("/"))?.pushManager.getSubscription();
        if (subscription) {
          await fetch("/api/push/subscriptions", {
            method: "DELETE",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ endpoint: subscription.endpoint }),
          });
          await subscription.unsubscribe();
        }
        setState("off");
        setOutcome({ tone: "done", message: t("turnedOff") });
      } catch {
        setOutcome({ tone: "error", message: t("failed") });
      }
    });

  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6" data-testid="push-device" data-state={state}>
      <h2 className="text-lg font-medium">{t("title")}</h2>
      <p className="mt-1 text-sm text-zinc-600">{t("help")}</p>
      {state === "unsupported" ? <p className="mt-3 text-sm text-zinc-700">{t("unsupported")}</p> : null}
      {state === "denied" ? <p className="mt-3 text-sm text-zinc-700">{t("denied")}</p> : null}
      {state === "off" || state === "on" ? (
        <button
          type="button"
          onClick={state === "on" ? turnOff : turnOn}
          disabled={busy}
          className="mt-4 min-h-11 rounded-md border border-zinc-300 px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:opacity-50"
        >
          {state === "on" ? t("turnOff") : t("turnOn")}
        </button>
      ) : null}
      {outcome ? (
        <p role="status" className={`mt-3 text-sm ${outcome.tone === "error" ? "text-red-700" : "text-brand-700"}`}>
          {outcome.message}
        </p>
      ) : null}
    </div>
  );
}
