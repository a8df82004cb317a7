import { describe, expect, it } from "vitest";
import { createSandbox, startSandboxServer } from "./app";
import { startTestSandbox } from "./testing";

describe("listen address", () => {
  it("is 127.0.0.1 unless SANDBOX_HOST says otherwise", async () => {
    const sandbox = await startTestSandbox();
    try {
      expect(sandbox.address).toBe("127.0.0.1");
      expect((await fetch(`http://127.0.0.1:${sandbox.port}/_sandbox/health`)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it("follows SANDBOX_HOST", async () => {
    const sandbox = await startTestSandbox({ config: { host: "0.0.0.0", controlToken: "c".repeat(32) } });
    try {
      expect(sandbox.address).toBe("0.0.0.0");
    } finally {
      await sandbox.close();
    }
  });
});

describe("an exposed sandbox without a control token", () => {
  it("refuses to start while the control API is on, naming SANDBOX_CONTROL_TOKEN", async () => {
    expect(() => createSandbox({ config: { host: "0.0.0.0" }, startDelivery: false })).toThrow(/SANDBOX_CONTROL_TOKEN/);
    await expect(startSandboxServer({ config: { host: "192.168.10.20", port: 0 } })).rejects.toThrow(/SANDBOX_CONTROL_TOKEN/);
  });

  it("starts with the control API off", () => {
    const handle = createSandbox({ config: { host: "0.0.0.0", controlEnabled: false, seedOrders: 0 }, startDelivery: false });
    expect(handle.context.config.controlToken).toBeUndefined();
  });

  it("a loopback sandbox needs no token", () => {
    expect(() => createSandbox({ config: { host: "localhost", seedOrders: 0 }, startDelivery: false })).not.toThrow();
  });
});
