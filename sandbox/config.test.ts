import { describe, expect, it } from "vitest";
import { loadSandboxConfig } from "./config";

describe("SANDBOX_CALLBACK_SCOPE", () => {
  it("defaults to one callback URL per application and user", () => {
    expect(loadSandboxConfig({}).callbackScope).toBe("user");
  });

  it("accepts application", () => {
    expect(loadSandboxConfig({ SANDBOX_CALLBACK_SCOPE: "application" }).callbackScope).toBe("application");
  });

  it("stops the sandbox on another value, naming the variable", () => {
    expect(() => loadSandboxConfig({ SANDBOX_CALLBACK_SCOPE: "tenant" })).toThrow(/SANDBOX_CALLBACK_SCOPE/);
  });
});
