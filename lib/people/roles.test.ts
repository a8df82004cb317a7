import { describe, expect, it } from "vitest";
import { can, CAPABILITIES } from "./roles";
import type { Role } from "./roles";

// The table of decision 0010, read back: each role's capabilities, spelled out.
describe("roles", () => {
  const granted = (role: Role) => CAPABILITIES.filter((capability) => can(role, capability));

  it("give the owner everything and the manager everything but the connection, webhooks and team", () => {
    expect(granted("owner")).toEqual([...CAPABILITIES]);
    expect(granted("manager")).toEqual(
      CAPABILITIES.filter((capability) => !["webhooks.manage", "connection.manage", "members.manage"].includes(capability)),
    );
  });

  it("give operations the orders with customer details, exports and packing stages, and nothing of prices, costs, SKUs, events or the team", () => {
    expect(granted("operations")).toEqual(["overview.view", "orders.view", "orders.customerData", "orders.export", "orders.packing"]);
  });

  it("let a viewer see and change nothing, without customer documents and e-mails or exports", () => {
    expect(granted("viewer")).toEqual(["overview.view", "orders.view", "prices.view", "skus.view", "events.view"]);
  });
});
