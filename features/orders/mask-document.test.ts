import { describe, expect, it } from "vitest";
import { order as specOrder } from "@marketplace/api/spec-examples";
import { orderSchema } from "@marketplace/api/schemas/order";
import { maskDocument, withoutCustomerData } from "./mask-document";

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

describe("withoutCustomerData (a viewer's order)", () => {
  const order = orderSchema.parse(specOrder);

  it("empties who bought, how to reach them, where it goes and the label, and leaves the order it was given alone", () => {
    const hidden = withoutCustomerData(order);
    // The pickup agency's address is the platform's, not the buyer's: it stays.
    const text = JSON.stringify({
      customer: hidden.customer,
      deliveries: hidden.deliveries.map((d) => [d.shipping.recipient, d.shipping.labels]),
    });
    const recipient = order.deliveries[0]!.shipping.recipient;
    for (const secret of [
      order.customer.name,
      order.customer.email,
      order.customer.document_number,
      order.customer.birth_date,
      order.customer.phones[0]!.number,
      recipient.address.street,
      recipient.address.zipcode,
      order.deliveries[0]!.shipping.labels.url,
    ]) {
      expect(secret).not.toBe("");
      expect(text).not.toContain(`"${secret}"`);
    }
    expect(order.customer.email).toBe(specOrder.customer.email);
  });

  it("keeps what the role may see: amounts, items, statuses and deadlines", () => {
    const hidden = withoutCustomerData(order);
    expect(hidden.amounts).toEqual(order.amounts);
    expect(hidden.status).toBe(order.status);
    expect(hidden.deliveries[0]!.items).toEqual(order.deliveries[0]!.items);
    expect(hidden.deliveries[0]!.shipping.handling_time).toEqual(order.deliveries[0]!.shipping.handling_time);
  });
});
