import { describe, expect, it } from "vitest";
import { basicUserInfoSchema, normalizeEmail } from "./oauth";

describe("basicUserInfoSchema", () => {
  it("accepts a real address, trimmed", () => {
    expect(basicUserInfoSchema.parse({ user_name: "Loja", user_email: " seller@example.com " })).toEqual({
      user_name: "Loja",
      user_email: "seller@example.com",
    });
  });

  it.each(["", "   ", "not-an-email", "seller@", "@example.com", "a b@example.com"])(
    "refuses %j: the dashboard could not tell sellers apart",
    (email) => {
      expect(basicUserInfoSchema.safeParse({ user_name: "Loja", user_email: email }).success).toBe(false);
    },
  );
});

describe("normalizeEmail", () => {
  it("finds one mailbox whatever the case or surrounding spaces", () => {
    expect(normalizeEmail("  Seller@Example.COM ")).toBe("seller@example.com");
  });
});
