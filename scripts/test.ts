// `npm test`: every check, in steps whose parts run at once where they do not slow each other's
// timing-sensitive tests (docs/testing.md):
//   1. database                         the server every later step uses, started once
//   2. lint → format  ∥  build → types  the build only when its inputs changed (scripts/build-once.ts)
//   3. vitest                           unit and integration tests, four files at a time
//   4. chromium → e2e                   Playwright against the build
// Vitest and Playwright each run alone: both hold tests that measure real intervals or wait on a
// server, and running them beside each other on two cores made those fail (the table in
// docs/testing.md). Each line of output is prefixed with its part; the last lines say each part's
// outcome and time.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

interface Part {
  name: string;
  command: string[];
}

/** A step's lanes run at once; a lane's parts one after another, stopping at the first failure. */
const STEPS: Part[][][] = [
  [[{ name: "database", command: ["npx", "tsx", "scripts/db-start.ts"] }]],
  [
    [
      { name: "lint", command: ["npm", "run", "--silent", "lint"] },
      { name: "format", command: ["npm", "run", "--silent", "format:check"] },
    ],
    [
      { name: "build", command: ["npx", "tsx", "scripts/build-once.ts"] },
      // After the build: `next typegen` and `next build` both write .next/.
      { name: "types", command: ["npm", "run", "--silent", "typecheck"] },
    ],
  ],
  [[{ name: "vitest", command: ["npx", "vitest", "run"] }]],
  [
    [
      { name: "chromium", command: ["npx", "tsx", "scripts/ensure-chromium.ts"] },
      { name: "e2e", command: ["npx", "playwright", "test"] },
    ],
  ],
];

type Outcome = { name: string; status: "passed" | "failed" | "not run"; seconds: number };

const ALL_PARTS = STEPS.flat(2);
const width = Math.max(...ALL_PARTS.map((part) => part.name.length), "total".length);

function run(part: Part): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(part.command[0]!, part.command.slice(1), { stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const prefix = `[${part.name}]`.padEnd(width + 3);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    child.on("close", (code) => {
      resolve({ name: part.name, status: code === 0 ? "passed" : "failed", seconds: (performance.now() - started) / 1000 });
    });
  });
}

const notRun = (part: Part): Outcome => ({ name: part.name, status: "not run", seconds: 0 });

async function runLane(lane: Part[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const part of lane) outcomes.push(outcomes.some((outcome) => outcome.status !== "passed") ? notRun(part) : await run(part));
  return outcomes;
}

const started = performance.now();
const results: Outcome[] = [];
// A failed step stops the ones after it, except the static checks': the tests still say what they find.
for (const step of STEPS) {
  const blocked = results.some((result) => result.status !== "passed" && !["lint", "format"].includes(result.name));
  results.push(...(blocked ? step.flat().map(notRun) : (await Promise.all(step.map(runLane))).flat()));
}
const wall = (performance.now() - started) / 1000;

console.log("");
for (const { name, status, seconds } of results) {
  console.log(`${name.padEnd(width)}  ${status.padEnd(7)}  ${status === "not run" ? "" : `${seconds.toFixed(1)} s`}`);
}
const failures = results.filter((result) => result.status !== "passed");
console.log(`${"total".padEnd(width)}  ${(failures.length === 0 ? "passed" : "failed").padEnd(7)}  ${wall.toFixed(1)} s wall`);
process.exit(failures.length === 0 ? 0 : 1);
