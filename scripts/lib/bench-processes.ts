// The processes a browser-level benchmark runs (bench:orders, bench:export): a production build of
// the dashboard pointed at a sandbox, both started detached, each in its own process group so
// stopping one stops its children too; whatever is still running is stopped when the script exits.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";

export const benchBaseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } as NodeJS.ProcessEnv;

/** A production dashboard served at `app`, whose platform is the sandbox at `sandbox`. */
export function productionDashboardEnv(app: string, sandbox: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...benchBaseEnv, ...extra, NODE_ENV: "production", MARKETPLACE_AUTH_URL: sandbox, MARKETPLACE_BASE_URL: sandbox, PUBLIC_BASE_URL: app, AUTH_URL: app };
}

export function buildDashboard(env: NodeJS.ProcessEnv) {
  const result = spawnSync("npx", ["next", "build"], { stdio: "inherit", env });
  if (result.status !== 0) throw new Error("next build failed");
}

const started: ChildProcess[] = [];

export function startDetached(command: string, commandArgs: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, commandArgs, { env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  started.push(child);
  return child;
}

export function stopGroup(child: ChildProcess) {
  if (child.pid) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
}

export function stopAllStarted() {
  started.forEach(stopGroup);
}
process.on("exit", stopAllStarted);

/** A process and all its descendants (the Next server runs in a child of `next start`). */
export function processTree(pid: number): number[] {
  const ids: number[] = [];
  const visit = (id: number) => {
    ids.push(id);
    try {
      const children = readFileSync(`/proc/${id}/task/${id}/children`, "utf8").trim();
      for (const child of children.split(/\s+/).filter(Boolean)) visit(Number(child));
    } catch {}
  };
  visit(pid);
  return ids;
}

/** Resident memory of a process and its children, in MB; bench:sandbox reads it too. */
export function residentMb(pid: number): number {
  let total = 0;
  for (const id of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {}
  }
  return total;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU a process (or one of its threads) has used, in ms, from /proc. */
function cpuMs(statFile: string): number {
  const fields = readFileSync(statFile, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

export interface CpuReading {
  /** The JavaScript thread (the event loop: what a Node server's throughput is bound by). */
  mainThreadMs: number;
  /** Every thread of the process (with GC helpers and libuv's pool). */
  processMs: number;
}

/** CPU used so far by the process named `title` (process.title) among `pid` and its descendants. */
export function cpuOf(pid: number, title: string): CpuReading {
  const server = processTree(pid).find((id) => {
    try {
      return readFileSync(`/proc/${id}/cmdline`, "utf8").startsWith(title);
    } catch {
      return false;
    }
  });
  if (server === undefined) throw new Error(`No process named ${title} under ${pid}`);
  return { mainThreadMs: cpuMs(`/proc/${server}/task/${server}/stat`), processMs: cpuMs(`/proc/${server}/stat`) };
}
