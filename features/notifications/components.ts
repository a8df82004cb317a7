// The notifications feature's components for the app's pages (docs/decisions/0017-feature-slices.md):
// kept apart from ./index.ts so that route handlers and background work load no React.
export { PushDevice } from "./components/push-device";
