// The benchmarks that import the dashboard's modules: lib/env.js reads the environment once per
// process, so one process makes the database and a second one, with DATABASE_URL naming it, measures.
import { spawn } from "node:child_process";
import { dropDatabase } from "@/prisma/pg-admin";

/** In the first process: migrate `database`, run this same script again with `flag`=1 to measure, drop the database. */
export async function measureInFreshDatabase(database: string, flag: string): Promise<void> {
  const started = performance.now();
  const { migrateFreshDatabase } = await import("@/scripts/migrate");
  const url = await migrateFreshDatabase(database);
  try {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? "", ...process.argv.slice(2)], {
      env: { ...process.env, DATABASE_URL: url, [flag]: "1" },
      stdio: "inherit",
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", resolve);
    });
    if (code !== 0) throw new Error(`the measuring process ended with exit code ${code}`);
  } finally {
    await dropDatabase(url);
  }
  console.log(`\nwhole run ${((performance.now() - started) / 1000).toFixed(1)} s; database ${database} dropped`);
}
