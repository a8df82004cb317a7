import "server-only";
import NextAuth from "next-auth";
import { recordCallbackFailure } from "@/lib/auth/callback-context";
import { connectSeller, IdentityConflictError } from "@/lib/data/sellers";
import { startSession } from "@/lib/data/sessions";
import { env } from "@/lib/env";
import { marketplaceProvider } from "@/lib/marketplace/provider";
import { basicUserInfoSchema } from "@/lib/marketplace/schemas/oauth";
import { reconcileSoon } from "@/lib/sync/reconcile";
import { switchOnNotificationsAtConnect } from "@/lib/webhooks/notifications-at-connect";

// Auth.js builds its URLs (the OAuth redirect URI, redirects after sign-in) from AUTH_URL and
// rewrites each request to it: the Host header, which any client can set, is never used. It is
// the dashboard's public URL unless set apart (a second instance on another port, in tests).
process.env.AUTH_URL ??= env.PUBLIC_BASE_URL;

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  // The cookie expires after SESSION_IDLE_SECONDS without a visit (each visit past updateAge
  // renews it); lib/auth/session.ts also ends it SESSION_MAX_AGE_SECONDS after sign-in, whatever
  // the activity, and when the connection it was issued for is gone or was renewed.
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
    }),
  ],
  callbacks: {
    // On sign-in the token goes straight into the database, encrypted; the JWT (a cookie) keeps
    // only the seller's id. Returning a new object drops Auth.js's default name/email/picture.
    async jwt({ token, account, profile }) {
      if (account?.access_token) {
        const info = basicUserInfoSchema.parse(profile);
        const seller = await connectSeller({
          email: info.user_email,
          name: info.user_name,
          accessToken: account.access_token,
          scopesRequested: env.MARKETPLACE_SCOPES,
        }).catch((error: unknown) => {
          if (error instanceof IdentityConflictError) recordCallbackFailure({ stage: "profile", error: "identity_conflict" });
          throw error;
        });
        await switchOnNotificationsAtConnect(seller.id).catch((error: unknown) => {
          console.warn(`[auth] could not switch notifications on after connecting: ${error instanceof Error ? error.message : String(error)}`);
        });
        // The mirror's back-fill (first connect) or a catch-up (reconnect), in the background.
        reconcileSoon(seller.id);
        const sessionId = await startSession(seller.id);
        return { sellerId: seller.id, sessionId, sessionEpoch: seller.sessionEpoch, startedAt: Date.now() };
      }
      return { sellerId: token.sellerId, sessionId: token.sessionId, sessionEpoch: token.sessionEpoch, startedAt: token.startedAt };
    },
    session({ session, token }) {
      return { expires: session.expires, sellerId: token.sellerId, sessionId: token.sessionId, sessionEpoch: token.sessionEpoch, startedAt: token.startedAt } as typeof session;
    },
  },
  // Auth.js's default logger prints error objects whole; keep log lines to names and messages so
  // no response body or token can reach a log.
  logger: {
    error(error) {
      console.error(`[auth] ${error.name}: ${error.message}`);
    },
    warn(code) {
      console.warn(`[auth] warning: ${code}`);
    },
    debug() {},
  },
});
