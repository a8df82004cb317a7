import type { PlatformProblem } from "@/lib/platform-problem";

/** A failed call to the dashboard's own JSON endpoints; `problem` lets the UI explain a platform failure. */
export class DashboardApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly problem: PlatformProblem | null,
  ) {
    super(message);
    this.name = "DashboardApiError";
  }
}

export async function fetchApi<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string; problem?: PlatformProblem } | null;
    throw new DashboardApiError(body?.error ?? `The request failed (HTTP ${response.status})`, response.status, body?.problem ?? null);
  }
  return (await response.json()) as T;
}
