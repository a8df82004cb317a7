// The console's way to change the sandbox: it calls the control API in process, through the same
// app, so each form runs exactly the route an integrator's script would call (its checks, its
// transitions, its notifications). Nothing of the control API's logic is repeated here.
import type { Context } from "hono";
import type { ErrorDetail } from "./errors";

/** The sandbox app's `fetch` (sandbox/app.ts passes `app.fetch`). */
export type ControlDispatch = (request: Request) => Response | Promise<Response>;

export type ControlResult<T> =
  { ok: true; status: number; body: T } | { ok: false; status: number; message: string; details: ErrorDetail[] };

interface ErrorBodyShape {
  error?: { message?: unknown; details?: unknown };
}

function isErrorDetail(value: unknown): value is ErrorDetail {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ErrorDetail).field === "string" &&
    typeof (value as ErrorDetail).message === "string"
  );
}

/**
 * `method path` with a JSON body, on behalf of the console request `c`: its Authorization header
 * goes along, so an exposed sandbox's control token (already checked for `c`) is checked again.
 */
export async function callControl<T>(
  dispatch: ControlDispatch,
  c: Context,
  method: "POST" | "DELETE",
  path: string,
  json?: unknown,
): Promise<ControlResult<T>> {
  const headers = new Headers();
  const authorization = c.req.header("Authorization");
  if (authorization) headers.set("Authorization", authorization);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  const response = await dispatch(
    new Request(new URL(path, c.req.url), { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) }),
  );
  const body = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, status: response.status, body: body as T };
  const error = (body as ErrorBodyShape | null)?.error;
  const message = typeof error?.message === "string" ? error.message : `The control API answered HTTP ${response.status}`;
  const details = Array.isArray(error?.details) ? error.details.filter(isErrorDetail) : [];
  return { ok: false, status: response.status, message, details };
}
