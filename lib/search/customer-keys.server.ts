import "server-only";
import { createHmac, createSecretKey, hkdfSync } from "node:crypto";
import { env } from "@/lib/env";
import { customerIdentifierOf, normalizedDocument, normalizedEmail } from "@/lib/search/customer-keys";
import type { CustomerKeyKind } from "@/lib/search/customer-keys";

// The order mirror keeps a keyed hash of the customer's e-mail and document, never the values
// (issue 42): search finds an order by the exact e-mail or document, and a copy of the database
// does not hand out customers' documents. The key comes from AUTH_SECRET: changing it makes these
// searches miss until the orders are mirrored again (each update of an order rewrites its keys).

// A KeyObject, made once: given a Buffer, createHmac makes one on every call (12.7 µs an HMAC
// against 2.3 µs on Node 24, two per mirrored order), about half of what turning an order into its
// mirror row cost processing's thread in a bench:webhooks profile.
const key = createSecretKey(Buffer.from(hkdfSync("sha256", env.AUTH_SECRET ?? "", "", "dashboard customer search keys v1", 32)));

const keyOf = (kind: CustomerKeyKind, value: string) => createHmac("sha256", key).update(`${kind}:${value}`).digest("base64url");

export function customerKeysOf(customer: { email?: string | undefined; document_number?: string | undefined }): string[] {
  const keys: string[] = [];
  const email = customer.email === undefined ? null : normalizedEmail(customer.email);
  if (email) keys.push(keyOf("email", email));
  const document = customer.document_number === undefined ? null : normalizedDocument(customer.document_number);
  if (document) keys.push(keyOf("document", document));
  return keys;
}

/** The key a search text matches, when it is an e-mail or a CPF/CNPJ. */
export function customerKeyOfQuery(query: string): { kind: CustomerKeyKind; key: string } | null {
  const identifier = customerIdentifierOf(query);
  return identifier ? { kind: identifier.kind, key: keyOf(identifier.kind, identifier.value) } : null;
}
