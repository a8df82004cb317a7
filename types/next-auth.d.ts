import "next-auth";
import "next-auth/jwt";

// The session and the JWT carry only the person's id, the id of the server-side session row
// (signing out deletes it) and when the session began: no token, no profile data. A cookie issued
// before people existed (issue 27) names a seller instead; its session row was carried over to
// the person who owns that shop.
declare module "next-auth" {
  interface Session {
    personId?: string;
    /** Only in a cookie issued before people existed. */
    sellerId?: string;
    sessionId?: string;
    startedAt?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    personId?: string;
    sellerId?: string;
    sessionId?: string;
    /** Epoch milliseconds of the sign-in: the absolute lifetime counts from it. */
    startedAt?: number;
  }
}
