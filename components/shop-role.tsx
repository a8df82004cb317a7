"use client";

import { createContext, useContext } from "react";
import type { ReactNode } from "react";
import { can } from "@/lib/people/roles";
import type { Capability, Role } from "@/lib/people/roles";

const ShopRole = createContext<Role | null>(null);

/** The person's role in the shop of the page (app/s/[shopId]/layout.tsx), for controls to offer only what it allows. */
export function ShopRoleProvider({ role, children }: { role: Role; children: ReactNode }) {
  return <ShopRole.Provider value={role}>{children}</ShopRole.Provider>;
}

/** Whether the page's role allows `capability`. The server checks again on every request. */
export function useCan(capability: Capability): boolean {
  const role = useContext(ShopRole);
  return role !== null && can(role, capability);
}
