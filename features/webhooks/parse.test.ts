import { describe, expect, it } from "vitest";
import { parseWebhookBody, storableText } from "./parse";

const body = (data: unknown) => JSON.stringify({ data });

describe("parseWebhookBody", () => {
  it("reads the order form (order_id, delivery_id)", () => {
    expect(parseWebhookBody(body({ domain: "order.delivery", status: "posted", order_id: "o1", delivery_id: "d1" }))).toEqual({
      valid: true,
      invalidReason: null,
      domain: "order.delivery",
      status: "posted",
      orderId: "o1",
      deliveryId: "d1",
      resourceId: "d1",
      code: null,
    });
  });

  it("reads the common form (id, code)", () => {
    expect(parseWebhookBody(body({ domain: "portfolio.sku", status: "created", id: "s1", code: "SKU-1" }))).toMatchObject({
      valid: true,
      domain: "portfolio.sku",
      resourceId: "s1",
      code: "SKU-1",
      orderId: null,
    });
  });

  it("accepts an order message in the common form and the `order` domain alias", () => {
    expect(parseWebhookBody(body({ domain: "order", status: "new", id: "o9", code: "A-9" }))).toMatchObject({
      valid: true,
      domain: "order.order",
      orderId: "o9",
      resourceId: "o9",
      code: "A-9",
    });
  });

  it("marks a body that is not JSON as invalid, keeping nothing else", () => {
    expect(parseWebhookBody("{not json")).toMatchObject({ valid: false, invalidReason: "The body is not valid JSON", domain: null });
  });

  it.each([
    [{ foo: "bar" }, /data/],
    [{ data: { domain: "order.order" } }, /status/],
    [{ data: { domain: "weather", status: "rainy", id: "x" } }, /Unknown domain/],
    [{ data: { domain: "portfolio.sku", status: "updated", id: "x" } }, /not one of portfolio.sku/],
    [{ data: { domain: "order.order", status: "approved" } }, /without order_id/],
    [{ data: { domain: "portfolio.price", status: "created" } }, /without id/],
  ])("marks an unknown shape as invalid with the reason (%j)", (json, reason) => {
    const parsed = parseWebhookBody(JSON.stringify(json));
    expect(parsed.valid).toBe(false);
    expect(parsed.invalidReason).toMatch(reason);
  });
});

describe("storableText", () => {
  it("replaces what PostgreSQL text cannot hold, NUL and lone surrogates, and keeps the rest", () => {
    expect(storableText("a\u0000b")).toBe("a\uFFFDb");
    expect(storableText("x\ud800y\udc00z")).toBe("x\uFFFDy\uFFFDz");
    expect(storableText("pão 😀")).toBe("pão 😀");
  });
});
