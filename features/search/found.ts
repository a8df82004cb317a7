import type { Role } from "@/lib/people/roles";

// What the search page and its route hand the browser (issue 42): words and links, no ids shown.

export type OrderMatch = "reference" | "id" | "customer" | "tracking" | "email" | "document";

export interface FoundOrder {
  href: string;
  shopName: string;
  /** "#1042", or the platform id's short form before a reference exists (lib/words/order-reference.ts). */
  reference: string;
  customerName: string;
  total: { value: number; currency: string; normalizer: number };
  createdAt: string;
  matched: OrderMatch;
}

export interface FoundProduct {
  href: string;
  shopName: string;
  sku: string;
  name: string;
}

export interface FoundPerson {
  href: string;
  shopName: string;
  name: string;
  role: Role;
}

export interface Found {
  query: string;
  /** False when the text is too short to search. */
  searched: boolean;
  orders: FoundOrder[];
  products: FoundProduct[];
  people: FoundPerson[];
}

export const foundCount = (found: Found) => found.orders.length + found.products.length + found.people.length;
