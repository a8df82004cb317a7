import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// AES-256-GCM with a random 96-bit IV per message. Stored form: "v1.<iv>.<ciphertext>.<tag>"
// (base64url parts), so a future key or algorithm change can be told apart by the prefix.
// `context` is bound as additional authenticated data: a ciphertext moved to another seller's row
// fails to decrypt instead of silently handing over another seller's token.
const VERSION = "v1";
const IV_BYTES = 12;

// The key is a parameter (the caller reads TOKEN_ENCRYPTION_KEY), which keeps this module free of
// configuration and usable from tests that inspect what the dashboard stored.
function checkKey(key: Buffer): Buffer {
  if (key.length !== 32) throw new Error("An AES-256-GCM key must be 32 bytes");
  return key;
}

export function encryptSecret(plaintext: string, context: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", checkKey(key), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, ciphertext, tag].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/**
 * The additional data a seller's access token is encrypted with: a ciphertext copied onto another
 * seller's row cannot be decrypted as theirs.
 */
export const sellerTokenContext = (sellerId: string) => `seller:${sellerId}`;

export class DecryptionError extends Error {
  constructor() {
    super("The stored secret could not be decrypted (wrong key, wrong owner or tampered data)");
    this.name = "DecryptionError";
  }
}

export function decryptSecret(stored: string, context: string, key: Buffer): string {
  const [version, iv, ciphertext, tag, ...rest] = stored.split(".");
  if (version !== VERSION || !iv || ciphertext === undefined || !tag || rest.length > 0) throw new DecryptionError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", checkKey(key), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new DecryptionError();
  }
}
