import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readUnsubscribeToken, unsubscribeToken } from "./unsubscribe-token";

const key = Buffer.alloc(32, 1);
const target = { personId: "person-a", shopId: "shop-a", kind: "order.new" } as const;

describe("unsubscribe links", () => {
  it("read back what they were made for", () => {
    expect(readUnsubscribeToken(unsubscribeToken(target, key), key)).toEqual(target);
  });

  it("cannot be turned into another person's, shop's or kind's link", () => {
    const token = unsubscribeToken(target, key);
    const [version, , mac] = token.split(".");
    for (const other of [
      ["person-b", "shop-a", "order.new"],
      ["person-a", "shop-b", "order.new"],
      ["person-a", "shop-a", "digest"],
    ]) {
      const forged = `${version}.${Buffer.from(JSON.stringify(other)).toString("base64url")}.${mac}`;
      expect(readUnsubscribeToken(forged, key)).toBeNull();
    }
  });

  it("are refused under another key, and when cut or altered anywhere", () => {
    const token = unsubscribeToken(target, key);
    expect(readUnsubscribeToken(token, Buffer.alloc(32, 2))).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: token.length - 1 }), fc.constantFrom("A", "b", ".", "-", ""), (at, replacement) => {
        const altered = token.slice(0, at) + replacement + token.slice(at + 1);
        fc.pre(altered !== token);
        // A base64url character whose low bits are ignored may decode to the same bytes.
        const read = readUnsubscribeToken(altered, key);
        if (read !== null) expect(read).toEqual(target);
      }),
    );
    expect(readUnsubscribeToken("", key)).toBeNull();
    expect(readUnsubscribeToken("u1.e30.", key)).toBeNull();
  });
});
