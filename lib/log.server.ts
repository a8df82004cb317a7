import "server-only";
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import type { DestinationStream, Level, Logger } from "pino";
import { isColorSupported, prettyFactory } from "pino-pretty";
import { env } from "@/lib/env";
import { WEBHOOK_SIGNATURE_HEADER } from "@marketplace/api/schemas/webhook";

// Secrets are removed twice: by key (pino's redact paths) and by content on every finished line
// (scrubText), which also catches free text, error messages, stacks and keys deeper than the paths.

export type { Logger };
export type LogFormat = "json" | "pretty";

const CENSOR = "[redacted]";

/** Keys whose values are never logged: tokens, credentials, headers that carry them, customer documents. */
const SECRET_KEYS = [
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "idToken",
  "id_token",
  "token",
  "code",
  "client_secret",
  "clientSecret",
  "password",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "Set-Cookie",
  "signature",
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_SIGNATURE_HEADER.toLowerCase(),
  "AUTH_SECRET",
  "TOKEN_ENCRYPTION_KEY",
  "TOKEN_ENCRYPTION_KEYS_PREVIOUS",
  "MARKETPLACE_CLIENT_SECRET",
  "SANDBOX_CONTROL_TOKEN",
  "DATABASE_URL",
  "webhookKey",
  "signingKeys",
  "accessTokenEnc",
  "previousTokenEnc",
  "document",
  "documents",
  "document_number",
  "documentNumber",
  "cpf",
  "cnpj",
];

const pathKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/** Each secret key up to two levels down, and where an order payload keeps customers' documents. */
const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [pathKey(key).replace(/^\./, ""), `*${pathKey(key)}`, `*.*${pathKey(key)}`]),
  ...["customer.document_number", "deliveries.*.shipping.recipient.document_number", "payments.*.gateway.document"].flatMap((path) => [
    path,
    `*.${path}`,
    `*.*.${path}`,
  ]),
];

const keyAlternatives = SECRET_KEYS.filter((key) => key !== "code")
  .map((key) => key.replace(/[-[\]{}()*+?.,\\^$|#]/g, "\\$&"))
  .join("|");

/** Rules applied to every finished line, in order. None may consume a quote or a backslash, so a JSON line stays JSON. */
const TEXT_RULES: readonly [RegExp, string | ((match: string) => string)][] = [
  // Credentials of an Authorization header, whatever their key.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${CENSOR}`],
  // A cookie header's every pair, up to the end of the line or of the JSON string.
  [/\b((?:set-)?cookie)(\s*[:=]\s*)(?!\[redacted\])[^"\\\r\n]+/gi, `$1$2${CENSOR}`],
  // "token":"…" at any depth of the line's JSON, and token=… / token: … in free text.
  [new RegExp(`("(?:${keyAlternatives})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "gi"), `$1"${CENSOR}"`],
  [new RegExp(`\\b(${keyAlternatives})(\\s*[:=]\\s*)(?!\\[redacted\\])[^\\s"\\\\&,;}]+`, "gi"), `$1$2${CENSOR}`],
  // OAuth's authorization code in a URL.
  [/([?&]code=)[^&\s"\\#]+/g, `$1${CENSOR}`],
  // A password in a URL (a database URL in a driver's error).
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/"\\]+:)[^\s@/"\\]+@/gi, `$1${CENSOR}@`],
  // JSON Web Tokens (session cookies).
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, CENSOR],
  // CNPJ, then CPF, formatted or not.
  [/\b\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b/g, CENSOR],
  [/\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g, CENSOR],
  // An opaque credential anywhere (an access token in an error message): 32 or more URL-safe
  // characters mixing upper case, lower case and digits. Hex digests and UUIDs have no upper case.
  [
    /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}={0,2}(?![A-Za-z0-9_-])/g,
    (match) => (/[A-Z]/.test(match) && /[a-z]/.test(match) && /\d/.test(match) ? CENSOR : match),
  ],
];

/** This deployment's own secrets, wherever they appear. */
const KNOWN_SECRETS = [
  env.AUTH_SECRET,
  env.TOKEN_ENCRYPTION_KEY,
  ...(env.TOKEN_ENCRYPTION_KEYS_PREVIOUS ?? []),
  env.MARKETPLACE_CLIENT_SECRET,
  process.env.SANDBOX_CONTROL_TOKEN,
]
  .filter((secret): secret is string => typeof secret === "string" && secret.length >= 8)
  // As they would appear inside a JSON string too.
  .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);

export function scrubText(text: string): string {
  let scrubbed = text;
  for (const secret of KNOWN_SECRETS) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(CENSOR);
  for (const [pattern, replacement] of TEXT_RULES) scrubbed = scrubbed.replace(pattern, replacement as string);
  return scrubbed;
}

type LineSink = Pick<DestinationStream, "write">;

function scrubbingDestination(format: LogFormat, sink: LineSink): DestinationStream {
  if (format === "json") return { write: (line: string) => void sink.write(scrubText(line)) };
  // In this thread: pino's worker-thread transports do not survive Next.js's bundling. Scrubbed
  // while still JSON.
  const prettify = prettyFactory({
    colorize: sink === process.stdout && isColorSupported,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
    singleLine: true,
  });
  return { write: (line: string) => void sink.write(prettify(scrubText(line))) };
}

export interface LoggerOptions {
  format?: LogFormat;
  level?: Level | "silent";
  destination?: LineSink;
}

/** A root logger; the app's is `log`. Tests make their own to capture what it writes. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? env.LOG_FORMAT;
  return pino(
    {
      level: options.level ?? env.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      // Level names rather than numbers, and ISO times: read by people as often as by machines.
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    scrubbingDestination(format, options.destination ?? process.stdout),
  );
}

/**
 * pino's error serializer, with an error's `code` (ECONNREFUSED, a PostgreSQL SQLSTATE) kept as
 * `errorCode`: `code` is a redacted key, since OAuth's authorization code goes by that name.
 */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  // A copy (causes folded into its message and stack): renaming here leaves the error alone.
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  if (typeof serialized.code === "string" || typeof serialized.code === "number") {
    serialized.errorCode = serialized.code;
    delete serialized.code;
  }
  // Libraries hang whole objects on errors (pg: the client and its connection settings).
  for (const [key, value] of Object.entries(serialized)) {
    if (value !== null && typeof value === "object" && key !== "aggregateErrors") delete serialized[key];
  }
  return serialized;
}

// One root logger per process, although Next.js may load this module once per bundle.
const globalForLog = globalThis as unknown as { dashboardLog?: Logger };

/** The process's root logger. Prefer a child with context: requestLog, shopLog, or `log.child({ component })`. */
export const log: Logger = globalForLog.dashboardLog ?? createLogger();
globalForLog.dashboardLog = log;

export const REQUEST_ID_HEADER = "x-request-id";

/** What proxy.ts accepts from a client as a request id; anything else is replaced. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Requests that reached a handler without proxy.ts (tests call route handlers directly). */
const generatedIds = new WeakMap<Request, string>();

/** The request's id: the one proxy.ts set (and echoes to the client), else one made up once per request. */
export function requestIdOf(request: Request): string {
  const header = request.headers.get(REQUEST_ID_HEADER);
  if (header && REQUEST_ID_PATTERN.test(header)) return header;
  let id = generatedIds.get(request);
  if (!id) generatedIds.set(request, (id = randomUUID()));
  return id;
}

export function requestLog(request: Request, fields: { shopId?: string; component?: string } = {}, parent: Logger = log): Logger {
  return parent.child({ requestId: requestIdOf(request), ...definedFields(fields) });
}

export function shopLog(shopId: string, fields: { component?: string } = {}, parent: Logger = log): Logger {
  return parent.child({ shopId, ...definedFields(fields) });
}

function definedFields<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
