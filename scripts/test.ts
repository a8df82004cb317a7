// `npm test`: every check, in three lanes at once, so the browser tests (the longest part) start
// as soon as their build is ready instead of after everything else (docs/testing.md):
//   checks   lint → format → types (once the build is done)
//   vitest   unit and integration tests (real PostgreSQL and sandbox)
//   e2e      chromium → build (only when its inputs changed) → Playwright
// after the database server is started, alone.
// Each line of output is prefixed with its part; the last lines say each part's outcome and time.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

interface Part {
  name: string;
  command: string[];
  /** Starts once that part (of another lane) has ended. */
  after?: string;
}

interface Lane {
  /** Run at a lower CPU priority (nice). */
  nice: boolean;
  /** Run every part even after one failed. */
  keepGoing: boolean;
  parts: Part[];
}

// The browser tests are the longest part and run one test at a time: their lane keeps the CPU's
// priority, and the others run at a lower one, on what it leaves free.
const LANES: Lane[] = [
  {
    nice: true,
    keepGoing: true,
    parts: [
      { name: "lint", command: ["npm", "run", "--silent", "lint"] },
      { name: "format", command: ["npm", "run", "--silent", "format:check"] },
      // After the build: `next typegen` and `next build` both write .next/.
      { name: "types", command: ["npm", "run", "--silent", "typecheck"], after: "build" },
    ],
  },
  { nice: true, keepGoing: false, parts: [{ name: "vitest", command: ["npx", "vitest", "run"] }] },
  {
    nice: false,
    // Each step needs the one before.
    keepGoing: false,
    parts: [
      { name: "chromium", command: ["npx", "tsx", "scripts/ensure-chromium.ts"] },
      { name: "build", command: ["npx", "tsx", "scripts/build-once.ts"] },
      { name: "e2e", command: ["npx", "playwright", "test"] },
    ],
  },
];

type Outcome = { name: string; status: "passed" | "failed" | "not run"; seconds: number };

const ALL_PARTS = LANES.flatMap((lane) => lane.parts);
const width = Math.max("database".length, ...ALL_PARTS.map((part) => part.name.length));

/** Each part's end, for a part that waits for one of another lane. */
const ended = new Map(
  ALL_PARTS.map((part) => {
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    return [part.name, { promise, resolve }] as const;
  }),
);

function run(part: Part, nice = false): Promise<Outcome> {
  const started = performance.now();
  const command = nice ? ["nice", "-n", "10", ...part.command] : part.command;
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const prefix = `[${part.name}]`.padEnd(width + 3);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    child.on("close", (code) => {
      resolve({ name: part.name, status: code === 0 ? "passed" : "failed", seconds: (performance.now() - started) / 1000 });
    });
  });
}

async function runLane(lane: Lane): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let failed = false;
  for (const part of lane.parts) {
    if (part.after) await ended.get(part.after)!.promise;
    const outcome: Outcome = failed && !lane.keepGoing ? { name: part.name, status: "not run", seconds: 0 } : await run(part, lane.nice);
    outcomes.push(outcome);
    failed ||= outcome.status === "failed";
    ended.get(part.name)!.resolve();
  }
  return outcomes;
}

const started = performance.now();
// First, alone: every lane's tests need the database server, and two lanes must not both start it.
const database = await run({ name: "database", command: ["npx", "tsx", "scripts/db-start.ts"] });
const results = [
  database,
  ...(database.status === "passed"
    ? (await Promise.all(LANES.map(runLane))).flat()
    : ALL_PARTS.map((part): Outcome => ({ name: part.name, status: "not run", seconds: 0 }))),
];
const wall = (performance.now() - started) / 1000;

const order = ["database", ...ALL_PARTS.map((part) => part.name)];
results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
console.log("");
for (const { name, status, seconds } of results) {
  console.log(`${name.padEnd(width)}  ${status.padEnd(7)}  ${status === "not run" ? "" : `${seconds.toFixed(1)} s`}`);
}
const failures = results.filter((result) => result.status !== "passed");
console.log(`${"total".padEnd(width)}  ${(failures.length === 0 ? "passed" : "failed").padEnd(7)}  ${wall.toFixed(1)} s wall`);
process.exit(failures.length === 0 ? 0 : 1);
