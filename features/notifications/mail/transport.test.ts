import { describe, expect, it } from "vitest";
import { classifySmtpError } from "./transport.server";

describe("classifySmtpError", () => {
  it("treats a server that cannot be reached, or says it is unavailable, as an outage: the message waits", () => {
    expect(classifySmtpError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" }))).toEqual({
      kind: "unreachable",
      error: "SMTP server not reachable (ESOCKET)",
    });
    expect(classifySmtpError(Object.assign(new Error("421 Server shutting down"), { responseCode: 421, code: "EENVELOPE" })).kind).toBe(
      "unreachable",
    );
  });

  it("counts a temporary refusal as an attempt, and gives up on a permanent one at once", () => {
    expect(classifySmtpError({ responseCode: 451, code: "EMESSAGE" })).toEqual({ kind: "refused_for_now", error: "SMTP 451 (EMESSAGE)" });
    expect(classifySmtpError({ responseCode: 550, code: "EENVELOPE" })).toEqual({ kind: "refused", error: "SMTP 550 (EENVELOPE)" });
  });

  it("keeps addresses out of what it records", () => {
    const failure = classifySmtpError(Object.assign(new Error("550 <dona@example.com>: mailbox unavailable"), { responseCode: 550 }));
    expect(failure.error).not.toContain("@");
  });
});
