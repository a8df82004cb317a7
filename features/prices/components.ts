// The prices feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { PricingSettings } from "./components/pricing-settings";
