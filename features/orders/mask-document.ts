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

/** "m•••@example.com" */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return email ? "•••" : "";
  return `${email[0]}•••${email.slice(at)}`;
}

interface CustomerData {
  customer: { email: string; document_number: string };
  deliveries: { shipping: { recipient: { email: string; document_number: string } } }[];
}

/** For a viewer, on the server, so the full values never reach their browser. */
export function redactCustomerData<T extends CustomerData>(order: T): T {
  return {
    ...order,
    customer: { ...order.customer, email: maskEmail(order.customer.email), document_number: maskDocument(order.customer.document_number) },
    deliveries: order.deliveries.map((delivery) => ({
      ...delivery,
      shipping: {
        ...delivery.shipping,
        recipient: {
          ...delivery.shipping.recipient,
          email: maskEmail(delivery.shipping.recipient.email),
          document_number: maskDocument(delivery.shipping.recipient.document_number),
        },
      },
    })),
  };
}
