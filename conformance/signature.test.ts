import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signBody, verifySignature } from "./signature";

const TOKEN = "an-access-token";
const body = Buffer.from('{"data": {"domain": "portfolio.sku", "status": "created", "id": "65f1a2b3c4d5e6f708192a3e", "code": "CAM-1"}}');

describe("verifySignature (spec: Events → Signature)", () => {
  it("accepts Base64(HMAC-SHA256(raw body, token))", () => {
    const header = createHmac("sha256", TOKEN).update(body).digest("base64");
    expect(signBody(body, TOKEN)).toBe(header);
    expect(verifySignature(body, header, TOKEN)).toEqual({ valid: true });
  });

  it.each([
    ["no header", undefined, "no X-SVC-Signature header"],
    ["a hexadecimal digest", createHmac("sha256", TOKEN).update(body).digest("hex"), "the signature is hexadecimal, not Base64"],
    [
      "a prefixed digest",
      `sha256=${createHmac("sha256", TOKEN).update(body).digest("base64")}`,
      "the signature carries a prefix (sha256=)",
    ],
    [
      "a digest of re-serialized JSON",
      signBody(JSON.stringify(JSON.parse(body.toString("utf8"))), TOKEN),
      "the signature is over re-serialized JSON, not the body as sent",
    ],
    ["another key", signBody(body, "another-token"), "it is not Base64(HMAC-SHA256(body, access token)) with this token"],
  ])("refuses %s, naming the mistake", (_case, header, reason) => {
    expect(verifySignature(body, header, TOKEN)).toEqual({ valid: false, reason });
  });
});
