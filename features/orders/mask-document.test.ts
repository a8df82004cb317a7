import { describe, expect, it } from "vitest";
import { maskDocument, maskEmail, redactCustomerData } from "./mask-document";

describe("maskDocument", () => {
  it("masks a CPF, raw or formatted, keeping the last two digits", () => {
    expect(maskDocument("52998224725")).toBe("•••.•••.•••-25");
    expect(maskDocument("529.982.247-25")).toBe("•••.•••.•••-25");
  });

  it("masks a CNPJ", () => {
    expect(maskDocument("11222333000181")).toBe("••.•••.•••/••••-81");
  });

  it("masks other lengths without revealing more than two digits", () => {
    expect(maskDocument("123456")).toBe("••••56");
    expect(maskDocument("")).toBe("—");
  });
});

describe("redactCustomerData (a viewer's order)", () => {
  const order = {
    id: "o1",
    customer: { email: "maria.silva@example.com", document_number: "52998224725", name: "Maria" },
    deliveries: [{ id: "d1", shipping: { recipient: { email: "joao@example.org", document_number: "11222333000181", name: "João" } } }],
  };

  it("masks every customer e-mail and document, keeps the rest, and leaves the order it was given alone", () => {
    const redacted = redactCustomerData(order);
    expect(redacted.customer).toEqual({ email: "m•••@example.com", document_number: "•••.•••.•••-25", name: "Maria" });
    expect(redacted.deliveries[0]!.shipping.recipient).toEqual({
      email: "j•••@example.org",
      document_number: "••.•••.•••/••••-81",
      name: "João",
    });
    expect(JSON.stringify(redacted)).not.toMatch(/maria\.silva|52998224725|joao@|11222333000181/);
    expect(order.customer.email).toBe("maria.silva@example.com");
    // The order page masks documents again for everyone: a masked one reads the same.
    expect(maskDocument(redacted.customer.document_number)).toBe("•••.•••.•••-25");
  });

  it("masks odd e-mails without revealing them", () => {
    expect(maskEmail("")).toBe("");
    expect(maskEmail("no-at-sign")).toBe("•••");
  });
});
