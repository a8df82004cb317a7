// Playwright's own browser download cannot work on machines without general internet access, so
// the e2e tests drive Debian's chromium. This makes sure it is there before `playwright test`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "../tests/e2e/chromium";

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

if (existsSync(CHROMIUM_PATH)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = existsSync("/usr/bin/apt-get");

if (isRoot && hasApt && CHROMIUM_PATH === "/usr/bin/chromium") {
  console.log("chromium is missing: installing Debian's chromium package with apt-get…");
  if (run("apt-get", ["update"]) && run("apt-get", ["install", "-y", "--no-install-recommends", "chromium"]) && existsSync(CHROMIUM_PATH)) {
    process.exit(0);
  }
  console.error("apt-get could not install chromium; see the output above.");
  process.exit(1);
}

console.error(
  [
    `The e2e tests need Chromium at ${CHROMIUM_PATH}, and it is missing.`,
    "Install Debian's package as root:",
    "  sudo apt-get update && sudo apt-get install -y chromium",
    "or point CHROMIUM_PATH at an existing Chromium/Chrome binary.",
  ].join("\n"),
);
process.exit(1);
