import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, strictTransportSecurity } from "./security-headers";

const base = {
  nonce: "abc123",
  publicBaseUrl: "https://dashboard.example",
  platformUrls: ["https://auth.market.example/x", "https://api.market.example"],
  development: false,
};
const directive = (policy: string, name: string) => policy.split("; ").find((part) => part.startsWith(`${name} `) || part === name);

describe("contentSecurityPolicy", () => {
  it("allows only nonced scripts in production: no unsafe-inline, no unsafe-eval", () => {
    const policy = contentSecurityPolicy(base);
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).not.toContain("unsafe-eval");
  });

  it("limits images to the dashboard and the platform, and forbids framing", () => {
    const policy = contentSecurityPolicy(base);
    expect(directive(policy, "img-src")).toBe("img-src 'self' data: blob: https://auth.market.example https://api.market.example");
    expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive(policy, "object-src")).toBe("object-src 'none'");
    expect(directive(policy, "form-action")).toContain("https://auth.market.example");
  });

  it("lets React's development build evaluate code, only in development", () => {
    expect(directive(contentSecurityPolicy({ ...base, development: true }), "script-src")).toContain("'unsafe-eval'");
  });
});

describe("strictTransportSecurity", () => {
  it("is sent for an https dashboard only", () => {
    expect(strictTransportSecurity("https://dashboard.example")).toMatch(/^max-age=\d+/);
    expect(strictTransportSecurity("http://localhost:3000")).toBeNull();
  });
});
