import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Stored as "v2.<key id>.<iv>.<ciphertext>.<tag>": the key id lets keys rotate, and `context` as
// AAD makes a ciphertext moved to another seller's row fail instead of handing over their token.
const VERSION = "v2";
const IV_BYTES = 12;

/** `current` encrypts; `previous` are still read. Passed in, so this module reads no configuration. */
export interface Keyring {
  current: Buffer;
  previous: readonly Buffer[];
}

function checkKey(key: Buffer): Buffer {
  if (key.length !== 32) throw new Error("An AES-256-GCM key must be 32 bytes");
  return key;
}

/** 8 hex digits of the key's SHA-256: names it without revealing it. */
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

export const shopTokenContext = (shopId: string) => `seller:${shopId}`;

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

/** `stale`: not the current key or format, so store it again. Throws DecryptionError when no key opens it. */
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
