// The one place that reads process.env for the dashboard. Plain ESM JavaScript (type-checked by
// tsc through checkJs) so that next.config.mjs can import it and a bad environment stops
// `next dev`, `next build` and `next start` before anything else runs.
import { createECDH, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DATA_DIR, defaultEmbeddedPort, embeddedDatabaseUrl, portNumber } from "./embedded-database.js";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** @param {string} url */
export function isLoopbackUrl(url) {
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).transform((url) => url.replace(/\/+$/, ""));

// A 32-byte key given as base64 (44 characters) or hex (64 characters).
const encryptionKey = z
  .string()
  .refine((value) => decodeKey(value) !== null, "must be 32 bytes encoded as base64 or hex (generate one with `openssl rand -base64 32`)");

/** @param {string} value @returns {Buffer | null} */
export function decodeKey(value) {
  const hex = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : null;
  if (hex) return hex;
  const b64 = Buffer.from(value, "base64");
  return b64.length === 32 ? b64 : null;
}

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/\S+$/, "must be a PostgreSQL URL of the form postgresql://user:password@host:port/database");

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  // Unset: the embedded PostgreSQL under .data/ (started by npm run dev / npm start / the tests).
  DATABASE_URL: optionalString.pipe(postgresUrl.optional()),
  // Unset: this checkout's own port (defaultEmbeddedPort).
  EMBEDDED_DATABASE_PORT: z.preprocess((value) => (value === "" ? undefined : value), portNumber.optional()),
  MARKETPLACE_AUTH_URL: httpUrl.default("http://localhost:4010"),
  MARKETPLACE_BASE_URL: httpUrl.default("http://localhost:4010"),
  MARKETPLACE_CLIENT_ID: optionalString,
  MARKETPLACE_CLIENT_SECRET: optionalString,
  MARKETPLACE_SCOPES: z
    .string()
    .trim()
    .regex(/^[\w:-]+( [\w:-]+)*$/, "must be scope values separated by single spaces")
    .default("basic_user_info portfolio:read portfolio:write order-order:read"),
  AUTH_SECRET: optionalString,
  TOKEN_ENCRYPTION_KEY: optionalString.pipe(encryptionKey.optional()),
  // Keys TOKEN_ENCRYPTION_KEY replaced, comma separated: what they encrypted is still read, and
  // re-encrypted with the current key when used (lib/crypto.ts).
  TOKEN_ENCRYPTION_KEYS_PREVIOUS: optionalString.pipe(
    z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((key) => key.trim())
          .filter(Boolean),
      )
      .pipe(z.array(encryptionKey))
      .optional(),
  ),
  PUBLIC_BASE_URL: httpUrl.default("http://localhost:3000"),
  SANDBOX_PORT: z.coerce.number().int().min(1).max(65535).default(4010),
  // The development mail server `npm run dev` starts (scripts/dev-mail.ts): its SMTP and web ports.
  MAILDEV_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
  MAILDEV_WEB_PORT: z.coerce.number().int().min(1).max(65535).default(1080),
  // E-mail (features/notifications, issue 41): the SMTP server, e.g. smtps://user:password@smtp.example.com:465.
  // Unset: under `npm run dev` the development mail server above; elsewhere e-mail is off (the
  // inbox and push still work, and the notification settings say so).
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
  // The From of every e-mail, e.g. "Minha Loja <avisos@example.com>". Required with SMTP_URL in production.
  MAIL_FROM: optionalString.pipe(
    z
      .string()
      .refine((value) => !/[\r\n]/.test(value), "must be one line")
      .optional(),
  ),
  // Web Push (issue 41): the VAPID key pair push services know this dashboard by, base64url (the
  // public key an uncompressed P-256 point, the private key its 32-byte scalar; `npx web-push
  // generate-vapid-keys` makes a pair), and the contact they may write to (mailto: or https:).
  // Generated into .data/dev-secrets.json for development; required in production.
  VAPID_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "must be a P-256 public key, base64url (87 characters)")
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "must be a P-256 private key, base64url (43 characters)")
      .optional(),
  ),
  VAPID_SUBJECT: optionalString.pipe(
    z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "must be a mailto: or https: URL")
      .optional(),
  ),
  // "1" lets push be sent to endpoints on this machine or a private network: the tests' local
  // push-service stand-in. Never in production, where an endpoint is any signed-in person's word.
  PUSH_ALLOW_LOCAL_ENDPOINTS: z.enum(["0", "1"]).default("0"),
  // "1" enables POST /api/test/clock, which moves the clock of the seller's day (the morning
  // digest, lib/schedule-clock.server.ts) forward: the e2e run moves it beside the sandbox's. Never
  // in production: anyone could make every digest of the day go out at once.
  TEST_CLOCK_CONTROL: z.enum(["0", "1"]).default("0"),
  // Notifications of one kind arriving within this many seconds of the last message sent to a
  // person about that shop are gathered into one message that counts them (the burst rule).
  NOTIFY_BURST_SECONDS: z.coerce.number().min(0).max(86_400).default(300),
  // Sending an e-mail or a push: attempts the server refuses before the message is "failed"
  // (shown to the shop's owner), and the first retry's delay, doubled each time up to 30 minutes.
  // A server that cannot be reached at all costs no attempt: its messages wait for it.
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  NOTIFY_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).default(30),
  // Events (and their receipts) older than this are deleted in the background; dead ones are kept
  // until processed again or the seller deletes their data.
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  // Sessions: ended after this long without a visit, and this long after sign-in in any case.
  SESSION_IDLE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(90 * 86_400)
    .default(12 * 3_600),
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(365 * 86_400)
    .default(7 * 86_400),
  // Where received events are processed: "inline", in the dashboard process that received them,
  // or "worker", in separate `npm run worker` processes (what `npm start` runs), which keeps the
  // request thread for requests. See docs/deploy.md.
  WEBHOOK_PROCESSING: z.enum(["inline", "worker"]).default("inline"),
  // Durable processing (features/webhooks/process/retry-policy.ts): attempts before an event is dead, and the
  // first retry's delay (doubled each time, with jitter, capped at 30 minutes).
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).default(10),
  // Whose tokens may have signed a body that reaches a seller's receiver URL (features/webhooks/receive/receiver.server.ts,
  // decision 0004): "user", that seller's alone (the platform keeps one callback URL per seller);
  // "application", also the other shops', as the spec's "one url per integrator application" has it.
  MARKETPLACE_CALLBACK_SCOPE: z.enum(["user", "application"]).default("user"),
  // In "application" scope, how many other shops a body no known order or SKU points to is tried
  // against before it is refused (401; reconciliation then finds the change).
  WEBHOOK_SIGNER_SEARCH_LIMIT: z.coerce.number().int().min(0).max(1_000).default(8),
  // Mis-signed bodies per receiver and minute that get the owner lookup and search; beyond it, a
  // mis-signed body is checked against its receiver's own keys only and answered 429.
  WEBHOOK_FAILED_SIGNATURES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  // Receipts of one body per seller and minute that are each processed (a platform read each);
  // later copies that minute are acknowledged and folded into one processing at the minute's end.
  WEBHOOK_REPLAY_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(5),
  // Reconciliation (features/webhooks/sync/reconcile.server.ts): how often each seller's orders are listed and compared
  // with the mirror, and how far back the mirror is filled when a seller connects.
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().min(1).max(86_400).default(300),
  /** Shops reconciled at once by one instance (each holds a database connection only while it writes). */
  RECONCILE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** A shop's run is cut off after this long and tried again at its next slot. */
  RECONCILE_SHOP_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(60),
  MIRROR_BACKFILL_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  // `npm run dev` clears the dashboard's database when its sandbox starts over (a reset; decision
  // 0015), but only the embedded database unless this is "1": a DATABASE_URL may be a real one.
  DEV_CLEAR_ON_SANDBOX_RESET: z.enum(["0", "1"]).default("0"),
  // Enables /api/bench/floor, the framework-floor route of `npm run bench:webhooks`. Off by default.
  BENCH_FLOOR_ROUTE: z.enum(["0", "1"]).default("0"),
  // Logs (lib/log.server.ts): JSON lines, or the same lines made readable for a terminal. Unset: "pretty"
  // under `npm run dev` (NODE_ENV=development), "json" otherwise.
  LOG_FORMAT: optionalString.pipe(z.enum(["json", "pretty"]).optional()),
  // Unset: "info"; "silent" under the test runner (NODE_ENV=test), whose tests cause failures on
  // purpose and would bury its report in their log lines (LOG_LEVEL=debug shows them again).
  LOG_LEVEL: optionalString.pipe(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional()),
  // Prometheus metrics (lib/metrics-server.server.ts): their own port, so they are never exposed through
  // the public one. "off" serves none; 0 takes any free port (tests). Unset: 9464, and off under
  // the test runner (NODE_ENV=test), whose many instances would otherwise contend for one port.
  METRICS_PORT: optionalString.pipe(
    z
      .union([z.literal("off"), z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().max(65535))], {
        error: 'must be a port number (0: any free one) or "off"',
      })
      .optional(),
  ),
  // Loopback by default: the endpoint has no authentication, so widening it is a deliberate act.
  METRICS_HOST: z.union([z.ipv4(), z.ipv6(), z.hostname()], { error: "must be an IP address or a host name" }).default("127.0.0.1"),
});

/** Settings that must be given explicitly when talking to a real platform in production. */
const PRODUCTION_SECRETS = /** @type {const} */ ([
  "DATABASE_URL",
  "MARKETPLACE_CLIENT_ID",
  "MARKETPLACE_CLIENT_SECRET",
  "AUTH_SECRET",
  "TOKEN_ENCRYPTION_KEY",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
]);

/** A P-256 key pair for VAPID, base64url: the public key uncompressed (65 bytes), the private key 32 bytes. */
function vapidKeyPair() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  // The scalar may have leading zero bytes, which getPrivateKey leaves out: VAPID wants all 32.
  const scalar = ecdh.getPrivateKey();
  const privateKey = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
  return { VAPID_PUBLIC_KEY: ecdh.getPublicKey().toString("base64url"), VAPID_PRIVATE_KEY: privateKey.toString("base64url") };
}

const devSecretsSchema = z.object({
  AUTH_SECRET: z.string().min(32),
  TOKEN_ENCRYPTION_KEY: encryptionKey,
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/)
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .optional(),
});

/**
 * Development secrets are generated once into .data/ so that `npm run dev` needs no .env, and
 * sessions, encrypted tokens and push subscriptions survive restarts. Never used against a real
 * platform in production. A file from before push had keys gets them added.
 * @returns {{ AUTH_SECRET: string; TOKEN_ENCRYPTION_KEY: string; VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string }}
 */
function loadOrCreateDevSecrets() {
  const file = path.join(DATA_DIR, "dev-secrets.json");
  if (existsSync(file)) {
    const parsed = devSecretsSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (parsed.success) {
      const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY } = parsed.data;
      if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY) return { ...parsed.data, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY };
      const completed = { ...parsed.data, ...vapidKeyPair() };
      // Two processes completing it at once: the last write wins, and both read it back.
      writeFileSync(file, JSON.stringify(completed, null, 2), { mode: 0o600 });
      return /** @type {typeof completed} */ (devSecretsSchema.required().parse(JSON.parse(readFileSync(file, "utf8"))));
    }
  }
  const secrets = {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ...vapidKeyPair(),
  };
  mkdirSync(DATA_DIR, { recursive: true });
  // `wx` fails if another process (next dev and the migrate script start together) won the race;
  // then read what it wrote so both use the same secrets.
  try {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
    return secrets;
  } catch {
    return JSON.parse(readFileSync(file, "utf8"));
  }
}

/** The port metrics are served on when METRICS_PORT is unset (Prometheus' registry lists it for Node exporters). */
export const DEFAULT_METRICS_PORT = 9464;

/**
 * @param {number | "off" | undefined} value
 * @param {"development" | "test" | "production"} nodeEnv
 * @returns {number | null}
 */
function metricsPort(value, nodeEnv) {
  if (value === "off") return null;
  if (value !== undefined) return value;
  return nodeEnv === "test" ? null : DEFAULT_METRICS_PORT;
}

/**
 * @param {string} publicBaseUrl
 * @param {string | undefined} mailFrom
 */
function vapidSubject(publicBaseUrl, mailFrom) {
  if (publicBaseUrl.startsWith("https://")) return publicBaseUrl;
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom ?? "")?.[1] ?? "avisos@localhost";
  return `mailto:${address}`;
}

/**
 * @param {Record<string, string | undefined>} source
 */
export function parseEnv(source) {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  const sandboxMode = isLoopbackUrl(parsed.MARKETPLACE_AUTH_URL) && isLoopbackUrl(parsed.MARKETPLACE_BASE_URL);

  if (parsed.NODE_ENV === "production" && !sandboxMode) {
    const missing = PRODUCTION_SECRETS.filter((name) => !parsed[name]);
    if (missing.length > 0) {
      throw new Error(
        `Missing required environment variable${missing.length > 1 ? "s" : ""} for production: ${missing.join(", ")}. ` +
          "See .env.example.",
      );
    }
  }

  if (parsed.NODE_ENV === "production" && !sandboxMode) {
    // The spec requires HTTPS towards the platform; the dashboard's own public URL carries session
    // cookies and the webhook receiver. Loopback addresses (a local proxy) are the exception.
    const plain = /** @type {const} */ (["MARKETPLACE_AUTH_URL", "MARKETPLACE_BASE_URL", "PUBLIC_BASE_URL"]).filter(
      (name) => new URL(parsed[name]).protocol !== "https:" && !isLoopbackUrl(parsed[name]),
    );
    if (plain.length > 0) {
      throw new Error(`In production ${plain.join(", ")} must be https:// URLs (loopback excepted). See docs/deploy.md.`);
    }
  }

  if (parsed.NODE_ENV === "production" && parsed.SMTP_URL && !parsed.MAIL_FROM) {
    throw new Error("MAIL_FROM is required with SMTP_URL in production: the address e-mails are sent from. See docs/deploy.md.");
  }

  const devSecrets =
    parsed.AUTH_SECRET && parsed.TOKEN_ENCRYPTION_KEY && parsed.VAPID_PUBLIC_KEY && parsed.VAPID_PRIVATE_KEY
      ? null
      : loadOrCreateDevSecrets();
  const embeddedPort = parsed.EMBEDDED_DATABASE_PORT ?? defaultEmbeddedPort();

  return {
    ...parsed,
    /** True when both platform URLs point at this machine: the sandbox. */
    SANDBOX_MODE: sandboxMode,
    /** True when no DATABASE_URL is given: the embedded PostgreSQL under .data/ is used. */
    EMBEDDED_DATABASE: parsed.DATABASE_URL === undefined,
    EMBEDDED_DATABASE_PORT: embeddedPort,
    /** True when EMBEDDED_DATABASE_PORT was given: then no port is chosen or recorded. */
    EMBEDDED_DATABASE_PORT_GIVEN: parsed.EMBEDDED_DATABASE_PORT !== undefined,
    DATABASE_URL: parsed.DATABASE_URL ?? embeddedDatabaseUrl(embeddedPort),
    MARKETPLACE_CLIENT_ID: parsed.MARKETPLACE_CLIENT_ID ?? "demo-integrator",
    MARKETPLACE_CLIENT_SECRET: parsed.MARKETPLACE_CLIENT_SECRET ?? "demo-secret",
    AUTH_SECRET: parsed.AUTH_SECRET ?? /** @type {NonNullable<typeof devSecrets>} */ (devSecrets).AUTH_SECRET,
    TOKEN_ENCRYPTION_KEY: parsed.TOKEN_ENCRYPTION_KEY ?? /** @type {NonNullable<typeof devSecrets>} */ (devSecrets).TOKEN_ENCRYPTION_KEY,
    /** @type {"json" | "pretty"} */
    LOG_FORMAT: parsed.LOG_FORMAT ?? (parsed.NODE_ENV === "development" ? "pretty" : "json"),
    /** @type {NonNullable<typeof parsed.LOG_LEVEL>} */
    LOG_LEVEL: parsed.LOG_LEVEL ?? (parsed.NODE_ENV === "test" ? "silent" : "info"),
    /** Where e-mail is handed over; null when e-mail is off (production without SMTP_URL). */
    SMTP_URL: parsed.SMTP_URL ?? (parsed.NODE_ENV === "development" ? `smtp://127.0.0.1:${parsed.MAILDEV_SMTP_PORT}` : null),
    MAIL_FROM: parsed.MAIL_FROM ?? "Painel do vendedor <avisos@localhost>",
    VAPID_PUBLIC_KEY: parsed.VAPID_PUBLIC_KEY ?? /** @type {NonNullable<typeof devSecrets>} */ (devSecrets).VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY: parsed.VAPID_PRIVATE_KEY ?? /** @type {NonNullable<typeof devSecrets>} */ (devSecrets).VAPID_PRIVATE_KEY,
    /** Who push services may contact about this sender: VAPID_SUBJECT, else the public URL (https) or MAIL_FROM's address. */
    VAPID_SUBJECT: parsed.VAPID_SUBJECT ?? vapidSubject(parsed.PUBLIC_BASE_URL, parsed.MAIL_FROM),
    /** The metrics server's port; null when it is switched off. */
    METRICS_PORT: metricsPort(parsed.METRICS_PORT, parsed.NODE_ENV),
  };
}

/** @typedef {ReturnType<typeof parseEnv>} Env */

/**
 * The Node.js line the project runs on: 24 LTS (20 is out of support). The npm package `node`
 * installs it from the npm registry into node_modules/.bin, which `npm run` puts first on the PATH,
 * so `npm run dev`, `npm start`, `npm test` and the worker run on it whatever Node the machine has.
 */
export const REQUIRED_NODE_MAJOR = 24;

/** Throws, saying what to do, on a Node.js older than REQUIRED_NODE_MAJOR. */
export function assertSupportedNode(version = process.versions.node) {
  const major = Number(version.split(".")[0]);
  if (!(major >= REQUIRED_NODE_MAJOR)) {
    throw new Error(
      `Node.js ${version} is out of support; this project runs on Node.js ${REQUIRED_NODE_MAJOR} LTS. ` +
        `Start it through npm (npm run dev, npm start, npm test, npm run worker), which runs the Node.js ${REQUIRED_NODE_MAJOR} ` +
        `that \`npm install\` put in node_modules/.bin, or put that one first on your PATH.`,
    );
  }
}

// Every way of running the project imports this module first (next.config.mjs, the run scripts,
// the test runners), so an older Node stops here, loudly. Not during `npm install` itself (its
// postinstall generates the Prisma client through this module), which CI runs on the machine's Node.
if (process.env.npm_lifecycle_event !== "postinstall") assertSupportedNode();

/** @type {Env} */
export const env = parseEnv(process.env);
