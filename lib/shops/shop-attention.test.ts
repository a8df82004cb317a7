import { describe, expect, it } from "vitest";
import { ATTENTION_CAUSES, attentionCauseOf, attentionPath, causeOfNotification } from "@/lib/shops/shop-attention";

describe("the shop needs its owner", () => {
  it("reads the cause that leads a subject, whatever follows it", () => {
    expect(attentionCauseOf("reconnect:2026-11-29T08:00:00.000")).toBe("reconnect");
    expect(attentionCauseOf("permissions:2026-11-29T08:00:00.000:order-order:read portfolio:write")).toBe("permissions");
    expect(attentionCauseOf("deadEvents:2026-11-29")).toBe("deadEvents");
  });

  it("reads no cause from a subject no cause starts, or none", () => {
    expect(attentionCauseOf("2026-11-29T08:00:00.000")).toBeNull();
    expect(attentionCauseOf("reconnected:x")).toBeNull();
    expect(attentionCauseOf(null)).toBeNull();
  });

  it("reads a stored notification's cause, and an older row without one as connect again", () => {
    expect(causeOfNotification("callback:2026-11-29T09:00:00.000")).toBe("callback");
    expect(causeOfNotification("2026-11-29T08:00:00.000")).toBe("reconnect");
  });

  it("opens the page that mends each cause", () => {
    expect(ATTENTION_CAUSES.map((cause) => [cause, attentionPath(cause)])).toEqual([
      ["reconnect", "/settings"],
      ["permissions", "/settings"],
      ["callback", "/webhooks"],
      ["deadEvents", "/webhooks/events?processing=dead"],
    ]);
  });
});
