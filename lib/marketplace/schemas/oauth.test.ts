import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { describeConnectError } from "@/lib/auth/connect-errors";
import type { ConnectWords } from "@/lib/auth/connect-errors";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
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

  it("tells the seller why, on the connect error page", () => {
    const t = createTranslator({ locale: "en", messages: catalogues.en as Messages, namespace: "connect" }) as unknown as ConnectWords;
    expect(describeConnectError("invalid_response", "profile", t).title).toMatch(/no usable e-mail/);
    expect(describeConnectError("identity_conflict", "profile", t).title).toMatch(/already connected/);
  });
});

describe("normalizeEmail", () => {
  it("finds one mailbox whatever the case or surrounding spaces", () => {
    expect(normalizeEmail("  Seller@Example.COM ")).toBe("seller@example.com");
  });
});
