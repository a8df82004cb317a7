import { describe, expect, it } from "vitest";
import { can, ROLES } from "@/lib/people/roles";
import { callbackWhere, doneCount, SETUP_GUIDE_CAPABILITY, setupSteps } from "@/features/overview/setup-guide/setup-steps";
import type { SetupFacts, SetupStep } from "@/features/overview/setup-guide/setup-steps";

// What "done" means for each step of the overview's setup guide (issue 40, point 13), from what the
// shop's people did: a freshly connected shop has done nothing yet, and each fact ticks its step.

const FRESH: SetupFacts = {
  callback: "here",
  lastNotificationAt: null,
  bestSellers: [
    { sku: "CAM-001", name: "Camiseta Básica" },
    { sku: "TEN-002", name: null },
  ],
  costed: new Set(),
  anyCost: false,
  members: 1,
  openInvitations: 0,
  appOpenedAt: null,
};

const step = <Name extends SetupStep["name"]>(facts: Partial<SetupFacts>, name: Name) =>
  setupSteps({ ...FRESH, ...facts }).find((candidate): candidate is Extract<SetupStep, { name: Name }> => candidate.name === name)!;

describe("the setup guide's steps", () => {
  it("lists the four steps in order, none done for a shop just connected", () => {
    const steps = setupSteps(FRESH);
    expect(steps.map((candidate) => candidate.name)).toEqual(["notifications", "costs", "team", "phone"]);
    expect(doneCount(steps)).toBe(0);
  });

  it("counts every step done once the shop has done all four", () => {
    const steps = setupSteps({
      ...FRESH,
      lastNotificationAt: new Date("2026-11-29T10:00:00Z"),
      costed: new Set(["CAM-001", "TEN-002"]),
      anyCost: true,
      members: 2,
      appOpenedAt: new Date("2026-11-29T11:00:00Z"),
    });
    expect(steps.every((candidate) => candidate.done)).toBe(true);
    expect(doneCount(steps)).toBe(4);
  });

  it("is shown to owners and managers only: those who can act on it", () => {
    expect(ROLES.filter((role) => can(role, SETUP_GUIDE_CAPABILITY))).toEqual(["owner", "manager"]);
  });
});

describe("notifications", () => {
  it("are done when they point here and one has arrived since", () => {
    expect(step({ lastNotificationAt: new Date() }, "notifications").done).toBe(true);
    expect(step({}, "notifications")).toMatchObject({ done: false, callback: "here" });
  });

  it("count as done when connecting could not tell but notifications arrive: they are signed with the shop's token", () => {
    expect(step({ callback: "unknown", lastNotificationAt: new Date() }, "notifications").done).toBe(true);
  });

  it("are not done while they go elsewhere or nowhere, whatever arrived before", () => {
    expect(step({ callback: "elsewhere", lastNotificationAt: new Date() }, "notifications").done).toBe(false);
    expect(step({ callback: "none", lastNotificationAt: new Date() }, "notifications").done).toBe(false);
  });

  it("point where the last change on the Webhooks page put them, else where connecting did", () => {
    expect(callbackWhere("on", null)).toBe("here");
    expect(callbackWhere("already", null)).toBe("here");
    expect(callbackWhere("elsewhere", null)).toBe("elsewhere");
    expect(callbackWhere("unknown", null)).toBe("unknown");
    expect(callbackWhere(null, null)).toBe("unknown");
    expect(callbackWhere("elsewhere", { receiver: "dashboard" })).toBe("here");
    expect(callbackWhere("on", { url: null })).toBe("none");
    expect(callbackWhere("on", { url: "https://erp.example.com/hook" })).toBe("elsewhere");
  });
});

describe("costs of the best sellers", () => {
  it("says which best sellers have no cost, in their order, and is done when none is missing", () => {
    expect(step({ costed: new Set(["CAM-001"]) }, "costs")).toEqual({
      name: "costs",
      done: false,
      state: "sales",
      bestSellers: FRESH.bestSellers,
      missing: [{ sku: "TEN-002", name: null }],
    });
    expect(step({ costed: new Set(["CAM-001", "TEN-002"]) }, "costs").done).toBe(true);
  });

  it("with no sale in 30 days, is done once any product has a cost", () => {
    expect(step({ bestSellers: [] }, "costs")).toEqual({ name: "costs", done: false, state: "noSales", anyCost: false });
    expect(step({ bestSellers: [], anyCost: true }, "costs").done).toBe(true);
  });

  it("is not done while the best sellers cannot be known", () => {
    expect(step({ bestSellers: null, anyCost: true }, "costs")).toEqual({ name: "costs", done: false, state: "unknown" });
  });
});

describe("a teammate", () => {
  it("is done with another member, or with an invitation still open", () => {
    expect(step({}, "team")).toMatchObject({ done: false, state: "alone" });
    expect(step({ openInvitations: 1 }, "team")).toMatchObject({ done: true, state: "invited" });
    expect(step({ members: 3, openInvitations: 1 }, "team")).toMatchObject({ done: true, state: "team", members: 3 });
  });
});

describe("the app on the phone", () => {
  it("is done once someone of the shop opened it as an installed app", () => {
    const openedAt = new Date("2026-11-29T11:00:00Z");
    expect(step({}, "phone").done).toBe(false);
    expect(step({ appOpenedAt: openedAt }, "phone")).toEqual({ name: "phone", done: true, openedAt });
  });
});
