// Playwright's own browser download cannot work on machines without general internet access, so
// the e2e tests drive Debian's headless Chromium. This makes sure it is there before `playwright test`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH, DEBIAN_CHROMIUM, DEBIAN_FULL_CHROMIUM, FULL_CHROMIUM_PATH } from "./lib/chromium";

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

// The headless shell for every spec; the full browser for the notifications spec.
const wanted = [
  { path: CHROMIUM_PATH, debian: DEBIAN_CHROMIUM },
  { path: FULL_CHROMIUM_PATH, debian: DEBIAN_FULL_CHROMIUM },
];
const missing = wanted.filter(({ path }) => !existsSync(path));
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
const packages = missing.filter(({ path, debian }) => path === debian.path).map(({ debian }) => debian.package);

if (isRoot && hasApt && packages.length === missing.length) {
  console.log(`${missing.map(({ path }) => path).join(", ")} missing: installing Debian's ${packages.join(", ")} with apt-get…`);
  if (
    run("apt-get", ["update"]) &&
    run("apt-get", ["install", "-y", "--no-install-recommends", ...packages]) &&
    missing.every(({ path }) => existsSync(path))
  ) {
    process.exit(0);
  }
  console.error(`apt-get could not install ${packages.join(", ")}; see the output above.`);
  process.exit(1);
}

console.error(
  [
    `The e2e tests need Chromium at ${missing.map(({ path }) => path).join(" and ")}, and it is missing.`,
    "Install Debian's packages as root:",
    `  sudo apt-get update && sudo apt-get install -y ${DEBIAN_CHROMIUM.package} ${DEBIAN_FULL_CHROMIUM.package}`,
    "or point CHROMIUM_PATH (headless shell) and FULL_CHROMIUM_PATH (full browser) at existing Chromium/Chrome binaries.",
  ].join("\n"),
);
process.exit(1);
