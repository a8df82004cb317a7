import "server-only";
import type { NextRequest } from "next/server";
import { auth } from "@/lib/auth/auth.server";
import { callbackContext, INTENT_COOKIE } from "@/lib/auth/callback-context.server";
import type { CallbackStore } from "@/lib/auth/callback-context.server";
import { personOfSession } from "@/lib/auth/session.server";
import { authorizationErrorCodeSchema } from "@marketplace/api/schemas/oauth";
import { MARKETPLACE_PROVIDER_ID } from "@/lib/auth/marketplace-provider";

const CALLBACK_PATH = `/api/auth/callback/${MARKETPLACE_PROVIDER_ID}`;
const ERROR_PAGE = "/connect/error";

function errorPage(request: NextRequest, params: Record<string, string>) {
  const url = new URL(ERROR_PAGE, request.nextUrl.origin);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return Response.redirect(url, 302);
}

/** So the error page shows the platform's own error, not Auth.js's "Configuration". */
export async function handleAuthGet(request: NextRequest, handler: (request: NextRequest) => Promise<Response>) {
  if (request.nextUrl.pathname === CALLBACK_PATH) {
    const platformError = request.nextUrl.searchParams.get("error");
    if (platformError !== null) {
      const known = authorizationErrorCodeSchema.safeParse(platformError);
      return errorPage(request, { error: known.success ? known.data : "unknown", stage: "authorize" });
    }
  }

  const store: CallbackStore = {};
  if (request.nextUrl.pathname === CALLBACK_PATH) {
    store.intent = request.cookies.get(INTENT_COOKIE)?.value === "signin" ? "signin" : "connect";
    store.personId = (await personOfSession(await auth()))?.id;
  }
  const response = await callbackContext.run(store, () => handler(request));
  const location = response.headers.get("location");
  if (store.failure && location && new URL(location, request.nextUrl.origin).pathname === ERROR_PAGE) {
    const redirect = errorPage(request, { error: store.failure.error, stage: store.failure.stage });
    // Keep the cookies Auth.js set or cleared (the state check's).
    const headers = new Headers(redirect.headers);
    for (const cookie of response.headers.getSetCookie()) headers.append("set-cookie", cookie);
    return new Response(null, { status: 302, headers });
  }
  return response;
}
