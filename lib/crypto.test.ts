import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DecryptionError, decryptSecret, encryptSecret } from "./crypto";

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
    expect(stored.startsWith("v1.")).toBe(true);
    expect(decryptSecret(stored, "seller-1", key)).toBe(token);
  });

  it("uses a fresh IV each time, so equal tokens give different ciphertexts", () => {
    expect(encryptSecret(token, "seller-1", key)).not.toBe(encryptSecret(token, "seller-1", key));
  });

  it("detects tampering with the ciphertext, the IV or the tag", () => {
    const stored = encryptSecret(token, "seller-1", key);
    const [version, iv, ciphertext, tag] = stored.split(".") as [string, string, string, string];
    const tampered = [
      [version, flipCharAt(iv, 0), ciphertext, tag],
      [version, iv, flipCharAt(ciphertext, 2), tag],
      [version, iv, ciphertext, flipCharAt(tag, 1)],
      [version, iv, ciphertext.slice(0, -2), tag],
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
    for (const value of ["", "v1", "v2.a.b.c", "v1.a.b", token]) {
      expect(() => decryptSecret(value, "seller-1", key)).toThrow(DecryptionError);
    }
  });
});
