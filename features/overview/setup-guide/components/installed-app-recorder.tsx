"use client";

import { useEffect } from "react";
import { recordInstalledAppAction } from "@/features/overview/setup-guide/actions";

/** Safari on iOS says so on `navigator` instead of answering the display-mode query. */
function openedAsInstalledApp(): boolean {
  return window.matchMedia("(display-mode: standalone)").matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/**
 * Tells the server, once, that the dashboard runs as an installed app: opened from the home screen
 * (display-mode standalone), or just installed from this page (the browser's `appinstalled`).
 * Rendered only while the shop has no such opening recorded.
 */
export function InstalledAppRecorder({ shopId }: { shopId: string }) {
  useEffect(() => {
    let told = false;
    const tell = () => {
      if (told) return;
      told = true;
      void recordInstalledAppAction(shopId);
    };
    if (openedAsInstalledApp()) tell();
    window.addEventListener("appinstalled", tell);
    return () => window.removeEventListener("appinstalled", tell);
  }, [shopId]);
  return null;
}
