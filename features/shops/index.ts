// Every shop of a person at a glance (issue 42). Server code, no React.
export { shopsAtAGlance } from "@/features/shops/glance.server";
export type { ShopGlance } from "@/features/shops/glance";
