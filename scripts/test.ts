// `npm test`: every check, in three lanes at once, so the browser tests (the longest part) start
// as soon as their build is ready instead of after everything else (docs/testing.md):
//   checks   lint → format
//   vitest   unit and integration tests (real PostgreSQL and sandbox)
//   e2e      chromium → types → build (only when its inputs changed) → Playwright
// after the database server is started, alone.
// Each line of output is prefixed with its part; the last lines say each part's outcome and time.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

interface Part {
  name: string;
  command: string[];
}

const LANES: Part[][] = [
  [
    { name: "lint", command: ["npm", "run", "--silent", "lint"] },
    { name: "format", command: ["npm", "run", "--silent", "format:check"] },
  ],
  [{ name: "vitest", command: ["npx", "vitest", "run"] }],
  [
    { name: "chromium", command: ["npx", "tsx", "scripts/ensure-chromium.ts"] },
    // Before the build, in its lane: `next typegen` and `next build` both write .next/.
    { name: "types", command: ["npm", "run", "--silent", "typecheck"] },
    { name: "build", command: ["npx", "tsx", "scripts/build-once.ts"] },
    { name: "e2e", command: ["npx", "playwright", "test"] },
  ],
];

type Outcome = { name: string; status: "passed" | "failed" | "not run"; seconds: number };

const width = Math.max("database".length, ...LANES.flat().map((part) => part.name.length));

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

/** A lane stops at its first failure, but for the static checks: the rest of the e2e lane needs what came before. */
async function runLane(lane: Part[], continueAfterFailure: boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let failed = false;
  for (const part of lane) {
    if (failed && !continueAfterFailure) {
      outcomes.push({ name: part.name, status: "not run", seconds: 0 });
      continue;
    }
    const outcome = await run(part);
    outcomes.push(outcome);
    failed ||= outcome.status === "failed";
  }
  return outcomes;
}

const started = performance.now();
// First, alone: every lane's tests need the database server, and two lanes must not both start it.
const database = await run({ name: "database", command: ["npx", "tsx", "scripts/db-start.ts"] });
const results = [
  database,
  ...(database.status === "passed"
    ? (await Promise.all(LANES.map((lane, index) => runLane(lane, index === 0)))).flat()
    : LANES.flat().map((part): Outcome => ({ name: part.name, status: "not run", seconds: 0 }))),
];
const wall = (performance.now() - started) / 1000;

const order = ["database", ...LANES.flat().map((part) => part.name)];
results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
console.log("");
for (const { name, status, seconds } of results) {
  console.log(`${name.padEnd(width)}  ${status.padEnd(7)}  ${status === "not run" ? "" : `${seconds.toFixed(1)} s`}`);
}
const failures = results.filter((result) => result.status !== "passed");
console.log(`${"total".padEnd(width)}  ${(failures.length === 0 ? "passed" : "failed").padEnd(7)}  ${wall.toFixed(1)} s wall`);
process.exit(failures.length === 0 ? 0 : 1);
