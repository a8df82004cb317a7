import "server-only";
import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { callbackContext, recordCallbackFailure } from "@/lib/auth/callback-context.server";
import { PASSKEY_PROVIDER_ID, verifyPasskeySignIn } from "@/lib/auth/passkeys.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { findPersonName, makeOwner, PersonIdentityConflictError, personForMarketplaceAccount } from "@/lib/people/people.server";
import { connectShop, IdentityConflictError } from "@/lib/shops/shops.server";
import { shopConnected } from "@/lib/shops/shop-events.server";
import { startSession } from "@/lib/people/sessions.server";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";
import { ENDPOINTS } from "@marketplace/api/client";
import { marketplaceProvider, TOKEN_PATH } from "@/lib/auth/marketplace-provider";
import { recordPlatformResponse } from "@/lib/metrics.server";
import { basicUserInfoSchema } from "@marketplace/api/schemas/oauth";
import { switchOnNotificationsAtConnect } from "@/lib/auth/notifications-at-connect.server";
import { cookies, headers } from "next/headers";
import { LOCALE_COOKIE, negotiateLocale } from "@/i18n/config";

// Auth.js builds its URLs from AUTH_URL, never from the Host header, which any client can set.
process.env.AUTH_URL ??= env.PUBLIC_BASE_URL;

const authLog = log.child({ component: "auth" });

/** The language of the browser signing in (its choice, else Accept-Language): what e-mails are then written in. */
async function requestLocale(): Promise<string | undefined> {
  try {
    const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
    return negotiateLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get("accept-language"));
  } catch {
    return undefined;
  }
}

const OAUTH_ENDPOINTS = new Map([
  [TOKEN_PATH, "oauthToken"],
  [ENDPOINTS.basicUserInfo.path, "basicUserInfo"],
]);

/** The token exchange goes through Auth.js's fetch, not the platform client, so it is timed here. */
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

/** The error page then says why, instead of Auth.js's "Configuration". */
function refusePersonConflict(error: unknown): never {
  if (error instanceof PersonIdentityConflictError) recordCallbackFailure({ stage: "profile", error: "person_conflict" });
  throw error;
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  // An idle timeout here; lib/auth/session.server.ts adds the absolute one and sign-out.
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
    // For people without a marketplace login of their own (decision 0010).
    Credentials({
      id: PASSKEY_PROVIDER_ID,
      name: "Passkey",
      credentials: { response: {}, name: {}, invite: {} },
      authorize: verifyPasskeySignIn,
    }),
  ],
  callbacks: {
    // The access token goes to the database, encrypted; the JWT keeps only the person and session ids.
    async jwt({ token, account, profile, user }) {
      if (account?.provider === PASSKEY_PROVIDER_ID && user?.id) {
        return { personId: user.id, sessionId: await startSession(user.id, await requestLocale()), startedAt: Date.now() };
      }
      if (account?.access_token) {
        const info = basicUserInfoSchema.parse(profile);
        const context = callbackContext.getStore();
        if (context?.intent === "signin") {
          // The token is not kept, so it can never be used for a shop's calls.
          const person = await personForMarketplaceAccount(info.user_email, info.user_name).catch(refusePersonConflict);
          return { personId: person.id, sessionId: await startSession(person.id, await requestLocale()), startedAt: Date.now() };
        }
        // Connecting while signed in adds the shop to that person (an agency's next shop). The person
        // is settled first, so a refused identity leaves no shop connected without an owner.
        const person =
          (context?.personId ? await findPersonName(context.personId) : null) ??
          (await personForMarketplaceAccount(info.user_email, info.user_name).catch(refusePersonConflict));
        const shop = await connectShop({
          email: info.user_email,
          name: info.user_name,
          accessToken: account.access_token,
          scopesRequested: env.MARKETPLACE_SCOPES,
        }).catch((error: unknown) => {
          if (error instanceof IdentityConflictError) recordCallbackFailure({ stage: "profile", error: "identity_conflict" });
          throw error;
        });
        const personId = person.id;
        await makeOwner(personId, shop.id);
        await recordAudit({
          shopId: shop.id,
          person,
          action: "connection.connect",
          subject: shop.email,
          after: { email: shop.email },
        });
        await switchOnNotificationsAtConnect(shop.id).catch((error: unknown) => {
          authLog.warn({ shopId: shop.id, err: error }, "could not switch notifications on after connecting");
        });
        shopConnected(shop.id);
        return { personId, sessionId: await startSession(personId, await requestLocale()), startedAt: Date.now() };
      }
      return { personId: token.personId, sellerId: token.sellerId, sessionId: token.sessionId, startedAt: token.startedAt };
    },
    session({ session, token }) {
      return {
        expires: session.expires,
        personId: token.personId,
        sellerId: token.sellerId,
        sessionId: token.sessionId,
        startedAt: token.startedAt,
      } as typeof session;
    },
  },
  // Names and messages only: Auth.js's default prints whole errors, response bodies and tokens included.
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
