// The integrator apps and demo sellers every sandbox starts with, and the fixed credentials and
// ids that tests and the README rely on.
import type { SandboxConfig } from "../config";
import type { SandboxStore } from "../store";

export const DEFAULT_REDIRECT_URI = "http://localhost:3000/api/auth/callback/marketplace";
export const DEMO_PASSWORD = "demo1234";

export const SEED_USER_IDS = {
  seller: "650000000000000000000001",
  seller2: "650000000000000000000002",
  free: "650000000000000000000003",
  caseTwin: "650000000000000000000004",
} as const;

export function seedApps(store: SandboxStore, config: SandboxConfig): void {
  store.apps.set("demo-integrator", {
    clientId: "demo-integrator",
    clientSecret: "demo-secret",
    name: "Demo Integrator",
    type: "marketplace",
    redirectUris: [...new Set([DEFAULT_REDIRECT_URI, ...config.extraRedirectUris])],
    mayUseAuthorizationCode: true,
  });
  store.apps.set("multi-integrator", {
    clientId: "multi-integrator",
    clientSecret: "multi-secret",
    name: "Multi Redirect Integrator",
    type: "marketplace",
    redirectUris: ["http://localhost:3000/cb1", "http://localhost:3000/cb2"],
    mayUseAuthorizationCode: true,
  });
  store.apps.set("autos-integrator", {
    clientId: "autos-integrator",
    clientSecret: "autos-secret",
    name: "Autos Integrator",
    type: "autos",
    redirectUris: [DEFAULT_REDIRECT_URI],
    mayUseAuthorizationCode: true,
  });
  // Reproduces `unauthorized_client` (authorization request and token exchange): a registered,
  // authenticated integrator that may not use the authorization code grant.
  store.apps.set("restricted-integrator", {
    clientId: "restricted-integrator",
    clientSecret: "restricted-secret",
    name: "Restricted Integrator",
    type: "marketplace",
    redirectUris: [DEFAULT_REDIRECT_URI],
    mayUseAuthorizationCode: false,
  });
}

export function seedUsers(store: SandboxStore): void {
  store.addUser({ id: SEED_USER_IDS.seller, email: "seller@example.com", password: DEMO_PASSWORD, name: "Loja Demo", pro: true });
  store.addUser({ id: SEED_USER_IDS.seller2, email: "seller2@example.com", password: DEMO_PASSWORD, name: "Loja Dois", pro: true });
  store.addUser({ id: SEED_USER_IDS.free, email: "free@example.com", password: DEMO_PASSWORD, name: "Usuário Free", pro: false });
  // Another platform user whose address differs from seller2's only in letter case: the dashboard
  // must never let one in as the other.
  store.addUser({ id: SEED_USER_IDS.caseTwin, email: "Seller2@Example.com", password: DEMO_PASSWORD, name: "Outra Pessoa", pro: true });
}

/** The extra seller number `index` (from 1): seller-00001@example.com, id 66000…0001, "Loja 00001". */
export function extraSeller(index: number): { id: string; email: string; name: string } {
  const number = String(index).padStart(5, "0");
  return { id: `66${String(index).padStart(22, "0")}`, email: `seller-${number}@example.com`, name: `Loja ${number}` };
}

/** SANDBOX_SEED_SELLERS: PRO sellers beside the demo ones, who sign in like them (password demo1234). */
export function seedExtraSellers(store: SandboxStore, count: number): string[] {
  const ids: string[] = [];
  for (let index = 1; index <= count; index++) {
    const seller = extraSeller(index);
    store.addUser({ ...seller, password: DEMO_PASSWORD, pro: true });
    ids.push(seller.id);
  }
  return ids;
}
