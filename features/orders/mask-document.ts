import type { Order } from "@marketplace/api/schemas/order";

/** The last two digits only: enough to tell two customers apart on a call, not to reuse the number. */
export function maskDocument(documentNumber: string): string {
  // A viewer's order arrives masked already.
  if (documentNumber.includes("•")) return documentNumber;
  const digits = documentNumber.replace(/\D/g, "");
  if (digits.length === 0) return "—";
  let seen = 0;
  const keepFrom = digits.length - 2;
  const formatted =
    digits.length === 11
      ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`
      : digits.length === 14
        ? `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`
        : digits;
  return formatted.replace(/\d/g, (digit) => (seen++ >= keepFrom ? digit : "•"));
}

/**
 * An order as a role without customer data gets it (decision 0010, LGPD): amounts, items, statuses
 * and deadlines stay; who bought, how to reach them, where it goes and the label (which prints the
 * address) are emptied on the server, so they never reach that person's browser.
 */
export function withoutCustomerData(order: Order): Order {
  return {
    ...order,
    customer: { ...order.customer, name: "", email: "", document_number: "", birth_date: "", phones: [] },
    deliveries: order.deliveries.map((delivery) => ({
      ...delivery,
      shipping: {
        ...delivery.shipping,
        labels: { ...delivery.shipping.labels, url: "" },
        recipient: {
          ...delivery.shipping.recipient,
          name: "",
          email: "",
          document_number: "",
          phones: [],
          address: { zipcode: "", street: "", number: "", district: "", city: "", state: "", country: "", complement: "", reference: "" },
        },
      },
    })),
  };
}
