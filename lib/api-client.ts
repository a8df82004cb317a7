// The browser's side of the dashboard's own JSON endpoints (/api/orders, /api/prices, ...): one
// error type that carries the platform problem (reconnect, missing scope) for the UI to explain.
import type { PlatformProblem } from "@/lib/data/platform";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly problem: PlatformProblem | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function fetchApi<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string; problem?: PlatformProblem } | null;
    throw new ApiError(body?.error ?? `The request failed (HTTP ${response.status})`, response.status, body?.problem ?? null);
  }
  return (await response.json()) as T;
}
