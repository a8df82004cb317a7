import "next-auth";
import "next-auth/jwt";

// The session and the JWT carry only the seller's id, the id of the server-side session row (signing
// out deletes it), the connection's session epoch (a reconnect
// or disconnect ends every earlier session) and when the session began: no token, no profile data.
declare module "next-auth" {
  interface Session {
    sellerId?: string;
    sessionId?: string;
    sessionEpoch?: string;
    startedAt?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    sellerId?: string;
    sessionId?: string;
    sessionEpoch?: string;
    /** Epoch milliseconds of the sign-in: the absolute lifetime counts from it. */
    startedAt?: number;
  }
}
