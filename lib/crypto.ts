import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// AES-256-GCM with a random 96-bit IV per message. Stored form: "v2.<key id>.<iv>.<ciphertext>.<tag>"
// (base64url parts; the key id is a short fingerprint of the key, so a ciphertext names the key
// that opens it and keys can be rotated). "v1.<iv>.<ciphertext>.<tag>" (no key id) is still read.
// `context` is bound as additional authenticated data: a ciphertext moved to another seller's row
// fails to decrypt instead of silently handing over another seller's token.
const VERSION = "v2";
const IV_BYTES = 12;

/**
 * The current key (every new ciphertext) and the keys it replaced (still read). The keys are a
 * parameter (the caller reads TOKEN_ENCRYPTION_KEY and TOKEN_ENCRYPTION_KEYS_PREVIOUS), which
 * keeps this module free of configuration and usable from tests that inspect what was stored.
 */
export interface Keyring {
  current: Buffer;
  previous: readonly Buffer[];
}

function checkKey(key: Buffer): Buffer {
  if (key.length !== 32) throw new Error("An AES-256-GCM key must be 32 bytes");
  return key;
}

/** A key's public name: 8 hex digits of its SHA-256 (reveals nothing usable about the key). */
export function keyId(key: Buffer): string {
  return createHash("sha256").update(checkKey(key)).digest("hex").slice(0, 8);
}

const asKeyring = (keys: Keyring | Buffer): Keyring => (Buffer.isBuffer(keys) ? { current: keys, previous: [] } : keys);

export function encryptSecret(plaintext: string, context: string, keys: Keyring | Buffer): string {
  const key = asKeyring(keys).current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", checkKey(key), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, keyId(key), ...[iv, ciphertext, tag].map((part) => part.toString("base64url"))].join(".");
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

function open(key: Buffer, iv: string, ciphertext: string, tag: string, context: string): string {
  const decipher = createDecipheriv("aes-256-gcm", checkKey(key), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/**
 * Decrypts with whichever key of the ring the ciphertext names (a v1 one: each key in turn).
 * `stale` is true when that was not the current key: the caller should store it again, encrypted
 * with the current key. Throws DecryptionError when no key opens it.
 */
export function openSecret(stored: string, context: string, keys: Keyring | Buffer): { plaintext: string; stale: boolean } {
  const ring = asKeyring(keys);
  const parts = stored.split(".");
  let candidates: Buffer[];
  let body: string[];
  if (parts[0] === "v2" && parts.length === 5) {
    candidates = [ring.current, ...ring.previous].filter((key) => keyId(key) === parts[1]);
    body = parts.slice(2);
  } else if (parts[0] === "v1" && parts.length === 4) {
    candidates = [ring.current, ...ring.previous];
    body = parts.slice(1);
  } else {
    throw new DecryptionError();
  }
  const [iv, ciphertext, tag] = body as [string, string, string];
  for (const key of candidates) {
    try {
      return { plaintext: open(key, iv, ciphertext, tag, context), stale: key !== ring.current || parts[0] !== VERSION };
    } catch {
      // Not this key (or tampered): try the next one.
    }
  }
  throw new DecryptionError();
}

export function decryptSecret(stored: string, context: string, keys: Keyring | Buffer): string {
  return openSecret(stored, context, keys).plaintext;
}
