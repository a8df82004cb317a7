// http_ece 1.2 (Encrypted Content-Encoding for HTTP, RFC 8188; what web-push encrypts with) ships
// no types. Only what the push tests use: decrypting an aes128gcm body as the receiving browser.
declare module "http_ece" {
  import type { ECDH } from "node:crypto";

  export function decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string | Buffer }): Buffer;
}
