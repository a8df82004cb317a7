import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature, verifyWebhookSignatureWithAny } from "./signature";

// A published HMAC-SHA256 vector: key "test_secret_key", body {"foo": "bar"}.
const KEY = "test_secret_key";
const BODY = Buffer.from('{"foo": "bar"}', "utf8");
const SIGNATURE = "B23tXN681gZ0qIWNRrgtzBE9XSDo5yaUu6wfmhu3a7g=";

describe("verifyWebhookSignature", () => {
  it("accepts the public test vector", () => {
    expect(signWebhookBody(BODY, KEY)).toBe(SIGNATURE);
    expect(verifyWebhookSignature(BODY, SIGNATURE, KEY)).toBe("valid");
  });

  it("rejects a body changed by one byte", () => {
    const changed = Buffer.from(BODY);
    changed[changed.length - 2] = "c".charCodeAt(0); // "bar" → "bcr"
    expect(verifyWebhookSignature(changed, SIGNATURE, KEY)).toBe("mismatch");
    expect(verifyWebhookSignature(Buffer.from('{"foo":"bar"}'), SIGNATURE, KEY)).toBe("mismatch");
  });

  it("rejects a signature made with another key", () => {
    expect(verifyWebhookSignature(BODY, SIGNATURE, "another_key")).toBe("mismatch");
    expect(verifyWebhookSignature(BODY, signWebhookBody(BODY, "another_key"), KEY)).toBe("mismatch");
  });

  it("tells a missing header apart", () => {
    expect(verifyWebhookSignature(BODY, null, KEY)).toBe("missing");
    expect(verifyWebhookSignature(BODY, undefined, KEY)).toBe("missing");
    expect(verifyWebhookSignature(BODY, "  ", KEY)).toBe("missing");
  });

  it("rejects malformed and wrong-length signatures without comparing", () => {
    expect(verifyWebhookSignature(BODY, "not base64!", KEY)).toBe("malformed");
    expect(verifyWebhookSignature(BODY, SIGNATURE.slice(0, -4), KEY)).toBe("malformed");
    expect(verifyWebhookSignature(BODY, Buffer.alloc(31).toString("base64"), KEY)).toBe("malformed");
    expect(verifyWebhookSignature(BODY, Buffer.alloc(33).toString("base64"), KEY)).toBe("malformed");
    expect(verifyWebhookSignature(BODY, Buffer.from(SIGNATURE, "base64").toString("hex"), KEY)).toBe("malformed");
  });
});

describe("verifyWebhookSignatureWithAny", () => {
  it("accepts a body signed with any of the keys, and refuses one signed with none", () => {
    expect(verifyWebhookSignatureWithAny(BODY, SIGNATURE, ["current-token", KEY])).toBe("valid");
    expect(verifyWebhookSignatureWithAny(BODY, SIGNATURE, [KEY, "previous-token"])).toBe("valid");
    expect(verifyWebhookSignatureWithAny(BODY, SIGNATURE, ["current-token", "previous-token"])).toBe("mismatch");
    expect(verifyWebhookSignatureWithAny(BODY, SIGNATURE, [])).toBe("mismatch");
  });

  it("judges a missing or malformed header before any key", () => {
    expect(verifyWebhookSignatureWithAny(BODY, null, [KEY])).toBe("missing");
    expect(verifyWebhookSignatureWithAny(BODY, "not base64!", [KEY])).toBe("malformed");
  });
});
