import "server-only";
import { log } from "@/lib/log.server";

// A passkey answer refused: why goes to the server's log, in one line; the browser learns nothing.

/** For the server's log only: the browser learns nothing. */
export class Refused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "Refused";
  }
}

export const passkeysLog = log.child({ component: "passkeys" });

export function logRefusal(flow: string, error: unknown) {
  // One line, with the challenges and ids an error quotes left out.
  const reason =
    error instanceof Error
      ? error.message
          .split("\n")[0]!
          .replace(/[A-Za-z0-9_-]{20,}/g, "…")
          .slice(0, 200)
      : "unknown";
  passkeysLog.warn({ flow }, `passkey ${flow} refused: ${reason}`);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Refused("the answer is not JSON");
  }
}
