import { describe, expect, it } from "vitest";
import { parseConformanceArgs } from "./options";

describe("parseConformanceArgs", () => {
  it("takes the base URL and the token, with the documented defaults", () => {
    expect(parseConformanceArgs(["--base-url", "https://api.example.com/", "--token", "abc"])).toEqual({
      kind: "run",
      options: { baseUrl: "https://api.example.com", token: "abc", allowWrites: false, webhookTimeoutMs: 30_000, requestTimeoutMs: 15_000 },
    });
  });

  it("reads every option", () => {
    const parsed = parseConformanceArgs([
      "--base-url=http://localhost:4010",
      "--auth-url=http://localhost:4010/",
      "--token=abc",
      "--allow-writes",
      "--listen=8787",
      "--callback-url=https://tunnel.example.com/hook",
      "--webhook-timeout=5",
      "--request-timeout=2.5",
    ]);
    expect(parsed).toEqual({
      kind: "run",
      options: {
        baseUrl: "http://localhost:4010",
        authUrl: "http://localhost:4010",
        token: "abc",
        allowWrites: true,
        listen: 8787,
        callbackUrl: "https://tunnel.example.com/hook",
        webhookTimeoutMs: 5000,
        requestTimeoutMs: 2500,
      },
    });
  });

  it("takes the token from CONFORMANCE_TOKEN, --token first", () => {
    const fromEnv = parseConformanceArgs(["--base-url", "http://localhost:4010"], { CONFORMANCE_TOKEN: "from-env" });
    expect(fromEnv.kind === "run" && fromEnv.options.token).toBe("from-env");
    const fromArgs = parseConformanceArgs(["--base-url", "http://localhost:4010", "--token", "from-args"], {
      CONFORMANCE_TOKEN: "from-env",
    });
    expect(fromArgs.kind === "run" && fromArgs.options.token).toBe("from-args");
  });

  it.each([
    [["--token", "abc"], "--base-url"],
    [["--base-url", "http://localhost:4010"], "--token is required"],
    [["--base-url", "ftp://example.com", "--token", "abc"], "--base-url must be an http(s) URL"],
    [["--base-url", "http://localhost:4010", "--token", "abc", "--listen", "8787"], "--listen needs --allow-writes"],
    [["--base-url", "http://localhost:4010", "--token", "abc", "--allow-writes", "--listen", "70000"], "--listen must be a port number"],
    [
      ["--base-url", "http://localhost:4010", "--token", "abc", "--allow-writes", "--callback-url", "https://x.example.com"],
      "--callback-url needs --listen",
    ],
    [["--base-url", "http://localhost:4010", "--token", "abc", "--webhook-timeout", "0"], "--webhook-timeout must be a positive number"],
    [["--base-url", "http://localhost:4010", "--token", "abc", "--verbose"], "--verbose"],
  ])("refuses %j", (argv, message) => {
    const parsed = parseConformanceArgs(argv);
    expect(parsed.kind).toBe("error");
    expect(parsed.kind === "error" && parsed.message).toContain(message);
  });

  it("answers --help", () => {
    expect(parseConformanceArgs(["--help"])).toEqual({ kind: "help" });
  });
});
