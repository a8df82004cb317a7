import "next-auth";
import "next-auth/jwt";

// The session and the JWT carry only the seller's id: no token, no profile data.
declare module "next-auth" {
  interface Session {
    sellerId?: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    sellerId?: string;
  }
}
