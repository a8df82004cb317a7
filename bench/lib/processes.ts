// The processes a browser-level benchmark runs (bench:orders, bench:export): a production build of
// the dashboard pointed at a sandbox, both started detached, each in its own process group so
// stopping one stops its children too; whatever is still running is stopped when the script exits.
// And what processes used, from /proc: memory, and CPU by part of the stack (the webhook benchmarks).
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";

// Metrics off: the processes of a benchmark share one machine and could not share one metrics port.
export const benchBaseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", METRICS_PORT: "off" } as NodeJS.ProcessEnv;

/** A production dashboard served at `app`, whose platform is the sandbox at `sandbox`. */
export function productionDashboardEnv(app: string, sandbox: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...benchBaseEnv,
    ...extra,
    NODE_ENV: "production",
    MARKETPLACE_AUTH_URL: sandbox,
    MARKETPLACE_BASE_URL: sandbox,
    PUBLIC_BASE_URL: app,
    AUTH_URL: app,
  };
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

/** The ids of every process running now (the numeric entries of /proc). */
function processIds(): string[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
}

/**
 * Whether any process of the process group `pgid` is still alive (the dashboard and the Next
 * server it starts share the group it was spawned detached into).
 */
export function processGroupAlive(pgid: number): boolean {
  for (const entry of processIds()) {
    try {
      // Fields after the command name (which may hold spaces): state, ppid, pgrp, ...
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
    } catch {}
  }
  return false;
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

/**
 * User + system CPU a process (or one of its threads) has used, in ms, from /proc; with
 * `reaped`, also that of its children that have exited (a database connection that closed).
 */
function cpuMs(statFile: string, reaped = false): number {
  const fields = readFileSync(statFile, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks * CLOCK_TICK_MS;
}

/** The process named `title` (process.title) among `pid` and its descendants. */
function processNamed(pid: number, title: string): number {
  const server = processTree(pid).find((id) => {
    try {
      return readFileSync(`/proc/${id}/cmdline`, "utf8").startsWith(title);
    } catch {
      return false;
    }
  });
  if (server === undefined) throw new Error(`No process named ${title} under ${pid}`);
  return server;
}

/**
 * CPU used so far by every process whose command name (/proc/PID/comm) is `comm`, with their
 * exited children (PostgreSQL's connections end, and their CPU moves to the postmaster), in ms.
 */
export function cpuOfCommand(comm: string): number {
  let total = 0;
  for (const entry of processIds()) {
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== comm) continue;
      total += cpuMs(`/proc/${entry}/stat`, true);
    } catch {}
  }
  return total;
}

/** CPU used so far by a process and its descendants, in ms. */
export function cpuOfTree(pid: number): number {
  let total = 0;
  for (const id of processTree(pid)) {
    try {
      total += cpuMs(`/proc/${id}/stat`);
    } catch {}
  }
  return total;
}

/** CPU used so far by each part of a webhook benchmark's stack, in ms (stackCpu). */
export interface StackCpu {
  /**
   * The Next server's JavaScript thread (the event loop: what a Node server's throughput is bound
   * by), and how long it was runnable but waiting for a core.
   */
  serverThread: number;
  serverThreadWaiting: number;
  /** Every thread of the dashboard's processes. */
  server: number;
  database: number;
  platform: number;
  /** This process: the benchmark's own sender. */
  loadGenerator: number;
  /** Busy and total CPU of every core. */
  machine: number;
  total: number;
}

/**
 * Where the machine's CPU went so far, by part of the stack: the dashboard started under
 * `dashboardPid` (its Next server titled "next-server"), PostgreSQL, the sandbox under
 * `platformPid`, and this process. Two snapshots' difference is what a load cost each part.
 */
export function stackCpu(dashboardPid: number, platformPid: number): StackCpu {
  const machine = machineCpu();
  const own = process.cpuUsage();
  const thread = processNamed(dashboardPid, "next-server");
  // The scheduler's account of the thread: time on a core, time runnable on a run queue, in ns.
  const [, waitingNs] = readFileSync(`/proc/${thread}/task/${thread}/schedstat`, "utf8").trim().split(" ").map(Number);
  return {
    serverThread: cpuMs(`/proc/${thread}/task/${thread}/stat`),
    serverThreadWaiting: waitingNs! / 1e6,
    server: cpuOfTree(dashboardPid),
    database: cpuOfCommand("postgres"),
    platform: cpuOfTree(platformPid),
    loadGenerator: (own.user + own.system) / 1000,
    machine: machine.busyMs,
    total: machine.totalMs,
  };
}

/** CPU used so far by each part of a cluster benchmark (bench:scale, bench:notifications), in ms. */
export interface ClusterCpu {
  /** Every dashboard instance with its children. */
  dashboards: number;
  database: number;
  platform: number;
  /** This process: the benchmark's sender (and whatever else it serves, such as a mail sink). */
  loadGenerator: number;
  /** Busy and total CPU of every core. */
  machine: number;
  total: number;
}

/** Where the machine's CPU went so far: the instances started as `dashboardPids`, PostgreSQL, the platform under `platformPid`, this process. */
export function clusterCpu(dashboardPids: readonly number[], platformPid: number): ClusterCpu {
  const own = process.cpuUsage();
  const machine = machineCpu();
  return {
    dashboards: dashboardPids.reduce((sum, pid) => sum + cpuOfTree(pid), 0),
    database: cpuOfCommand("postgres"),
    platform: cpuOfTree(platformPid),
    loadGenerator: (own.user + own.system) / 1000,
    machine: machine.busyMs,
    total: machine.totalMs,
  };
}

/** No CPU at all: what sums of stackCpuUsed start from. */
export const NO_STACK_CPU: Readonly<StackCpu> = {
  serverThread: 0,
  serverThreadWaiting: 0,
  server: 0,
  database: 0,
  platform: 0,
  loadGenerator: 0,
  machine: 0,
  total: 0,
};

/** `after` minus `before`, part by part. */
export function stackCpuUsed<T extends Record<keyof T, number>>(before: T, after: T): T {
  const used = { ...after };
  for (const key of Object.keys(used) as (keyof T)[]) used[key] = (after[key] - before[key]) as T[keyof T];
  return used;
}

/** The machine's busy and total CPU so far, in ms, from /proc/stat (every core). */
export function machineCpu(): { busyMs: number; totalMs: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const totalTicks = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const idleTicks = fields[3]! + fields[4]!;
  return { busyMs: (totalTicks - idleTicks) * CLOCK_TICK_MS, totalMs: totalTicks * CLOCK_TICK_MS };
}

/** A loopback port free at this moment, for a server a benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
