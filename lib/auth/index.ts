import "server-only";
import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { callbackContext, recordCallbackFailure } from "@/lib/auth/callback-context";
import { PASSKEY_PROVIDER_ID, verifyPasskeySignIn } from "@/lib/auth/passkeys";
import { recordAudit } from "@/lib/data/audit";
import { findPersonName, makeOwner, personForMarketplaceAccount } from "@/lib/data/people";
import { connectSeller, IdentityConflictError } from "@/lib/data/sellers";
import { startSession } from "@/lib/data/sessions";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { ENDPOINTS } from "@/lib/marketplace/client";
import { marketplaceProvider, TOKEN_PATH } from "@/lib/marketplace/provider";
import { recordPlatformResponse } from "@/lib/metrics";
import { basicUserInfoSchema } from "@/lib/marketplace/schemas/oauth";
import { reconcileSoon } from "@/lib/sync/reconcile";
import { switchOnNotificationsAtConnect } from "@/lib/webhooks/notifications-at-connect";

// Auth.js builds its URLs (the OAuth redirect URI, redirects after sign-in) from AUTH_URL and
// rewrites each request to it: the Host header, which any client can set, is never used. It is
// the dashboard's public URL unless set apart (a second instance on another port, in tests).
process.env.AUTH_URL ??= env.PUBLIC_BASE_URL;

const authLog = log.child({ component: "auth" });

/** The platform endpoints the OAuth flow calls, by path, as the metrics name them. */
const OAUTH_ENDPOINTS = new Map([
  [TOKEN_PATH, "oauthToken"],
  [ENDPOINTS.basicUserInfo.path, "basicUserInfo"],
]);

/**
 * The token exchange goes through Auth.js's fetch, not the platform client, so its requests (and
 * the profile read that follows) are timed here for the platform-request metrics.
 */
const timedPlatformFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const endpoint = OAUTH_ENDPOINTS.get(url.pathname) ?? "other";
  const started = performance.now();
  try {
    const response = await fetch(input, init);
    recordPlatformResponse({ endpoint, status: response.status, durationMs: performance.now() - started });
    return response;
  } catch (error) {
    const status = error instanceof Error && error.name === "TimeoutError" ? "timeout" : "network";
    recordPlatformResponse({ endpoint, status, durationMs: performance.now() - started });
    throw error;
  }
};

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  // The cookie expires after SESSION_IDLE_SECONDS without a visit (each visit past updateAge
  // renews it); lib/auth/session.ts also ends it SESSION_MAX_AGE_SECONDS after sign-in, whatever
  // the activity, and when its row is gone (signed out).
  session: { strategy: "jwt", maxAge: env.SESSION_IDLE_SECONDS, updateAge: Math.min(3_600, Math.floor(env.SESSION_IDLE_SECONDS / 2)) },
  pages: { signIn: "/connect", error: "/connect/error" },
  providers: [
    marketplaceProvider({
      authUrl: env.MARKETPLACE_AUTH_URL,
      baseUrl: env.MARKETPLACE_BASE_URL,
      clientId: env.MARKETPLACE_CLIENT_ID,
      clientSecret: env.MARKETPLACE_CLIENT_SECRET,
      scopes: env.MARKETPLACE_SCOPES,
      onCallbackError: recordCallbackFailure,
      fetch: timedPlatformFetch,
    }),
    // Passkeys (WebAuthn) for people without a marketplace login of their own: the browser's
    // signed answer to a challenge is checked here; it answers the person (decision 0010).
    Credentials({ id: PASSKEY_PROVIDER_ID, name: "Passkey", credentials: { response: {}, name: {}, invite: {} }, authorize: verifyPasskeySignIn }),
  ],
  callbacks: {
    // On sign-in the token goes straight into the database, encrypted; the JWT (a cookie) keeps
    // only the person's id and their session row. Returning a new object drops Auth.js's default
    // name/email/picture.
    async jwt({ token, account, profile, user }) {
      if (account?.provider === PASSKEY_PROVIDER_ID && user?.id) {
        return { personId: user.id, sessionId: await startSession(user.id), startedAt: Date.now() };
      }
      if (account?.access_token) {
        const info = basicUserInfoSchema.parse(profile);
        const context = callbackContext.getStore();
        if (context?.intent === "signin") {
          // Signing in only: the person is known by their marketplace account; its token is not
          // kept, so it can never be used for a shop's calls.
          const person = await personForMarketplaceAccount(info.user_email, info.user_name);
          return { personId: person.id, sessionId: await startSession(person.id), startedAt: Date.now() };
        }
        const seller = await connectSeller({
          email: info.user_email,
          name: info.user_name,
          accessToken: account.access_token,
          scopesRequested: env.MARKETPLACE_SCOPES,
        }).catch((error: unknown) => {
          if (error instanceof IdentityConflictError) recordCallbackFailure({ stage: "profile", error: "identity_conflict" });
          throw error;
        });
        // Connecting while signed in adds the shop to that person (an agency's next shop);
        // otherwise the account's own person owns it.
        const person = (context?.personId ? await findPersonName(context.personId) : null) ?? (await personForMarketplaceAccount(info.user_email, info.user_name));
        const personId = person.id;
        await makeOwner(personId, seller.id);
        await recordAudit({ sellerId: seller.id, person, action: "connection.connect", subject: seller.email, after: { email: seller.email } });
        await switchOnNotificationsAtConnect(seller.id).catch((error: unknown) => {
          authLog.warn({ shopId: seller.id, err: error }, "could not switch notifications on after connecting");
        });
        // The mirror's back-fill (first connect) or a catch-up (reconnect), in the background.
        reconcileSoon(seller.id);
        return { personId, sessionId: await startSession(personId), startedAt: Date.now() };
      }
      return { personId: token.personId, sellerId: token.sellerId, sessionId: token.sessionId, startedAt: token.startedAt };
    },
    session({ session, token }) {
      return { expires: session.expires, personId: token.personId, sellerId: token.sellerId, sessionId: token.sessionId, startedAt: token.startedAt } as typeof session;
    },
  },
  // Auth.js's default logger prints error objects whole; keep log lines to names and messages so
  // no response body or token can reach a log.
  logger: {
    error(error) {
      authLog.error(`${error.name}: ${error.message}`);
    },
    warn(code) {
      authLog.warn(`Auth.js warning: ${code}`);
    },
    debug() {},
  },
});
