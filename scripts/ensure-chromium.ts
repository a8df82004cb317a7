// Playwright's own browser download cannot work on machines without general internet access, so
// the e2e tests drive Debian's headless Chromium. This makes sure it is there before `playwright test`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH, DEBIAN_CHROMIUM } from "./lib/chromium";

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

if (existsSync(CHROMIUM_PATH)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = existsSync("/usr/bin/apt-get");

if (isRoot && hasApt && CHROMIUM_PATH === DEBIAN_CHROMIUM.path) {
  console.log(`${CHROMIUM_PATH} is missing: installing Debian's ${DEBIAN_CHROMIUM.package} package with apt-get…`);
  if (
    run("apt-get", ["update"]) &&
    run("apt-get", ["install", "-y", "--no-install-recommends", DEBIAN_CHROMIUM.package]) &&
    existsSync(CHROMIUM_PATH)
  ) {
    process.exit(0);
  }
  console.error(`apt-get could not install ${DEBIAN_CHROMIUM.package}; see the output above.`);
  process.exit(1);
}

console.error(
  [
    `The e2e tests need Chromium at ${CHROMIUM_PATH}, and it is missing.`,
    "Install Debian's package as root:",
    `  sudo apt-get update && sudo apt-get install -y ${DEBIAN_CHROMIUM.package}`,
    "or point CHROMIUM_PATH at an existing Chromium/Chrome binary.",
  ].join("\n"),
);
process.exit(1);
