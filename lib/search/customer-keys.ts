// What identifies a customer exactly, as search compares it (issue 42): an e-mail in lower case, a
// CPF or CNPJ as its 11 or 14 digits, however it was punctuated. customer-keys.server.ts keys them.

export type CustomerKeyKind = "email" | "document";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizedEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  return EMAIL.test(email) ? email : null;
}

/** "123.456.789-09" → "12345678909"; null unless it is a CPF's 11 or a CNPJ's 14 digits and nothing else. */
export function normalizedDocument(value: string): string | null {
  const text = value.trim();
  if (!/^[\d.\-/\s]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, "");
  return digits.length === 11 || digits.length === 14 ? digits : null;
}

/** What a search text is, if it is an exact customer identifier. */
export function customerIdentifierOf(query: string): { kind: CustomerKeyKind; value: string } | null {
  const email = normalizedEmail(query);
  if (email) return { kind: "email", value: email };
  const document = normalizedDocument(query);
  return document ? { kind: "document", value: document } : null;
}
