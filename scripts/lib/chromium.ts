// Debian's Chromium as Playwright drives it headless, shared by the Playwright config, the
// benchmarks and the install check: the headless shell (Debian's chromium-headless-shell package,
// the same engine without the browser's window layer), which is what Playwright itself runs for a
// headless test. 8 % faster than the full browser over the same e2e tests here (docs/testing.md).
export const DEBIAN_CHROMIUM = { path: "/usr/bin/chromium-headless-shell", package: "chromium-headless-shell" };
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM.path;
// The full browser, for the one spec that needs the system's notifications (tests/e2e/push.spec.ts):
// the headless shell has no notification platform and denies the permission whatever is granted.
export const DEBIAN_FULL_CHROMIUM = { path: "/usr/bin/chromium", package: "chromium" };
export const FULL_CHROMIUM_PATH = process.env.FULL_CHROMIUM_PATH ?? DEBIAN_FULL_CHROMIUM.path;

// Without the background-networking flags Chromium keeps trying to reach Google services, which
// this closed network refuses; --no-sandbox because CI runs as root.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
