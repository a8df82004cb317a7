import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DecryptionError, decryptSecret, encryptSecret, keyId, openSecret } from "./crypto";

const key = randomBytes(32);
const token = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

function flipCharAt(text: string, index: number) {
  const char = text[index] === "A" ? "B" : "A";
  return text.slice(0, index) + char + text.slice(index + 1);
}

describe("encryptSecret / decryptSecret", () => {
  it("round-trips a token and never stores it in clear", () => {
    const stored = encryptSecret(token, "seller-1", key);
    expect(stored).not.toContain(token);
    expect(stored.startsWith(`v2.${keyId(key)}.`)).toBe(true);
    expect(decryptSecret(stored, "seller-1", key)).toBe(token);
  });

  it("uses a fresh IV each time, so equal tokens give different ciphertexts", () => {
    expect(encryptSecret(token, "seller-1", key)).not.toBe(encryptSecret(token, "seller-1", key));
  });

  it("detects tampering with the ciphertext, the IV or the tag", () => {
    const stored = encryptSecret(token, "seller-1", key);
    const [version, id, iv, ciphertext, tag] = stored.split(".") as [string, string, string, string, string];
    const tampered = [
      [version, id, flipCharAt(iv, 0), ciphertext, tag],
      [version, id, iv, flipCharAt(ciphertext, 2), tag],
      [version, id, iv, ciphertext, flipCharAt(tag, 1)],
      [version, id, iv, ciphertext.slice(0, -2), tag],
      [version, flipCharAt(id, 0), iv, ciphertext, tag],
    ].map((parts) => parts.join("."));
    for (const value of tampered) {
      expect(() => decryptSecret(value, "seller-1", key)).toThrow(DecryptionError);
    }
  });

  it("refuses another owner's ciphertext and another key", () => {
    const stored = encryptSecret(token, "seller-1", key);
    expect(() => decryptSecret(stored, "seller-2", key)).toThrow(DecryptionError);
    expect(() => decryptSecret(stored, "seller-1", randomBytes(32))).toThrow(DecryptionError);
  });

  it("refuses malformed stored values", () => {
    for (const value of ["", "v1", "v2.a.b.c", "v1.a.b", "v3.a.b.c.d", token]) {
      expect(() => decryptSecret(value, "seller-1", key)).toThrow(DecryptionError);
    }
  });
});

/** A ciphertext in the first stored form, "v1.<iv>.<ciphertext>.<tag>", as earlier versions wrote. */
function encryptV1(plaintext: string, context: string, withKey: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", withKey, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

describe("key rotation", () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const ring = { current: newKey, previous: [oldKey] };

  it("reads what a previous key encrypted, and says it should be stored again", () => {
    const stored = encryptSecret(token, "seller-1", oldKey);
    expect(openSecret(stored, "seller-1", ring)).toEqual({ plaintext: token, stale: true });
    const again = encryptSecret(token, "seller-1", ring);
    expect(again.split(".")[1]).toBe(keyId(newKey));
    expect(openSecret(again, "seller-1", ring)).toEqual({ plaintext: token, stale: false });
  });

  it("reads the first stored form (no key id) with any key of the ring, and marks it stale", () => {
    expect(openSecret(encryptV1(token, "seller-1", oldKey), "seller-1", ring)).toEqual({ plaintext: token, stale: true });
    expect(openSecret(encryptV1(token, "seller-1", newKey), "seller-1", ring)).toEqual({ plaintext: token, stale: true });
  });

  it("refuses what no key of the ring opens", () => {
    const stored = encryptSecret(token, "seller-1", randomBytes(32));
    expect(() => openSecret(stored, "seller-1", ring)).toThrow(DecryptionError);
    expect(() => openSecret(encryptSecret(token, "seller-1", oldKey), "seller-1", newKey)).toThrow(DecryptionError);
  });
});
