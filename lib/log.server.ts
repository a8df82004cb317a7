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
  // Web Push (issue 41): a device's keys, and the VAPID private key.
  "p256dh",
  "VAPID_PRIVATE_KEY",
  "SMTP_URL",
];

const pathKey = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/** Each secret key up to two levels down, and where an order payload keeps customers' documents. */
const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [pathKey(key).replace(/^\./, ""), `*${pathKey(key)}`, `*.*${pathKey(key)}`]),
  // A push subscription's auth secret (its "keys"), by path: "auth" alone names too much else.
  ...["customer.document_number", "deliveries.*.shipping.recipient.document_number", "payments.*.gateway.document", "keys.auth"].flatMap(
    (path) => [path, `*.${path}`, `*.*.${path}`],
  ),
];

const keyAlternatives = SECRET_KEYS.filter((key) => key !== "code")
  .map((key) => key.replace(/[-[\]{}()*+?.,\\^$|#]/g, "\\$&"))
  .join("|");

// A JSON line writes a line break as \n, a backslash as \\ and a control character as \u001b: a word
// may start right after such an escape (one preceded by an even number of backslashes, counted up to
// a bound that keeps the rules linear). A rule that replaces its whole match must never start on an
// escape's letter, or the line stops being JSON.
const AFTER_ESCAPE = String.raw`(?<=(?<=(?<!\\)(?:\\\\){0,16})\\(?:[\\"/bfnrt]|u[\dA-Fa-f]{4}))`;
/** `\b`, with a JSON escape counted as a boundary. For rules that keep the word they start on. */
const WORD_START = String.raw`(?:\b|${AFTER_ESCAPE})`;

type Replacement = string | ((match: string, ...groups: string[]) => string);

/**
 * Rules applied to every finished line, in order. None may consume a quote or a backslash, so a JSON
 * line stays JSON. A third element is a quick test the line must pass for a costly rule to run.
 */
const TEXT_RULES: readonly (readonly [RegExp, Replacement, RegExp?])[] = [
  // Credentials of an Authorization header, whatever their key.
  [new RegExp(String.raw`${WORD_START}(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+`, "gi"), `$1 ${CENSOR}`],
  // A cookie header's every pair, up to the end of the line or of the JSON string.
  [new RegExp(String.raw`${WORD_START}((?:set-)?cookie)(\s*[:=]\s*)(?!\[redacted\])[^"\\\r\n]+`, "gi"), `$1$2${CENSOR}`],
  // "token":"…" at any depth of the line's JSON, and token=… / token: … in free text.
  [new RegExp(String.raw`("(?:${keyAlternatives})"\s*:\s*)"(?:[^"\\]|\\.)*"`, "gi"), `$1"${CENSOR}"`],
  [new RegExp(String.raw`${WORD_START}(${keyAlternatives})(\s*[:=]\s*)(?!\[redacted\])[^\s"\\&,;}]+`, "gi"), `$1$2${CENSOR}`],
  // "token tok-4242", "access token …": after a mere space (or a tab or line break, escaped in a
  // JSON line), only a value that looks like one.
  [
    new RegExp(String.raw`${WORD_START}(${keyAlternatives})((?:\s|\\[nrt])+)(?![:=]|\[redacted\])([^\s"\\&,;}]+)`, "gi"),
    (match, key, space, value) => {
      // Punctuation that ends the sentence stays.
      const credential = value.replace(/[.:!?)]+$/, "");
      return looksLikeSpacedCredential(credential) ? `${key}${space}${CENSOR}${value.slice(credential.length)}` : match;
    },
  ],
  // OAuth's authorization code in a URL.
  [/([?&]code=)[^&\s"\\#]+/g, `$1${CENSOR}`],
  // A password in a URL (a database URL in a driver's error).
  [/(:\/\/[^\s:@/"\\]+:)[^\s@/"\\]+@/g, `$1${CENSOR}@`],
  // E-mail addresses (customers', people's), plain, after mailto: or URL-encoded (%40, %2540).
  // After the URL rule, so a database URL keeps its host. Starting only where a run of address
  // characters starts keeps the rule linear.
  [
    new RegExp(
      String.raw`(?:(?<![\w\\.%+-])|${AFTER_ESCAPE})[\w.%+-]+(?:@|%(?:25)?40)(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}(?![A-Za-z0-9-])`,
      "g",
    ),
    CENSOR,
    /@|%(?:25)?40/,
  ],
  // The secret segment of the invite link and of a shop's webhook receiver, plain or URL-encoded;
  // the route stays readable. A route pattern ("/invite/[token]") is left.
  [/((?:\/|%2F)(?:invite|api(?:\/|%2F)webhooks(?:\/|%2F)marketplace)(?:\/|%2F))(?!\[)[^/?#&\s"\\%<>]+/gi, `$1${CENSOR}`],
  // A push subscription's endpoint: its path is the device's address at the push service (a
  // capability: whoever has it can reach that device). The host stays, to say which service.
  [
    /(https?:\/\/(?:fcm\.googleapis\.com|android\.googleapis\.com|updates\.push\.services\.mozilla\.com|[\w.-]*push\.apple\.com|[\w.-]*notify\.windows\.com|[^\s/"\\]+(?=\/(?:push|wpush|fcm)\/)))\/[^\s"\\]+/gi,
    `$1/${CENSOR}`,
    /push|fcm|notify\.windows/i,
  ],
  // JSON Web Tokens (session cookies).
  [new RegExp(String.raw`${WORD_START}eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`, "g"), CENSOR],
  // CNPJ, then CPF, formatted or not.
  [new RegExp(String.raw`${WORD_START}\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b`, "g"), CENSOR],
  [new RegExp(String.raw`${WORD_START}\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b`, "g"), CENSOR],
  // An opaque credential anywhere (an access token in an error message): a run of 32 or more
  // URL-safe characters that looks random (looksOpaque).
  [
    new RegExp(String.raw`(?:(?<![\w\\-])|${AFTER_ESCAPE})[\w-]{32,}={0,2}(?![\w-])`, "g"),
    (match) => (looksOpaque(match) ? CENSOR : match),
  ],
];

/**
 * Whether a run of 32+ URL-safe characters is a credential rather than an id or a word. Kept: UUIDs
 * (no part is 32 long), cuids (25), ObjectIds (24 hex: platform order ids operators look up) and
 * all-digit runs (an invoice's 44-digit access key). Removed: SHA-256 and other digests too, since
 * `openssl rand -hex 32` makes the same shape, and no log line needs one to be read.
 */
function looksOpaque(run: string): boolean {
  const chars = run.replace(/=+$/, "");
  // Mixed case and digits: base64url (the platform's tokens, our keys) nearly always.
  if (/[A-Z]/.test(chars) && /[a-z]/.test(chars) && /\d/.test(chars)) return true;
  // Hex of one case, alone or after a prefix ("whsec_…").
  if (chars.split(/[-_]/).some((part) => part.length >= 32 && /^(?:[\da-f]+|[\dA-F]+)$/.test(part) && /[a-f]/i.test(part))) return true;
  if (/\d/.test(chars)) return false;
  // base64url that happened to draw no digit (one in 250 of 32 characters): random letters are
  // about half capitals, while camelCase, Title-Case-Headers and CONSTANT_CASE have few or none.
  const upper = chars.replace(/[^A-Z]/g, "").length;
  const lower = chars.replace(/[^a-z]/g, "").length;
  return upper * 5 >= upper + lower && lower * 5 >= upper + lower;
}

/**
 * After "token " (a space, no = or :) the next word is a credential only if it looks like one: 8 or
 * more characters with a digit, a symbol or a capital inside. "token expired" is prose.
 */
function looksLikeSpacedCredential(value: string): boolean {
  return value.length >= 8 && /[\d_~+/=-]|\p{Ll}\p{Lu}/u.test(value);
}

/** This deployment's own secrets, wherever they appear. */
const KNOWN_SECRETS = [
  env.AUTH_SECRET,
  env.TOKEN_ENCRYPTION_KEY,
  ...(env.TOKEN_ENCRYPTION_KEYS_PREVIOUS ?? []),
  env.MARKETPLACE_CLIENT_SECRET,
  env.VAPID_PRIVATE_KEY,
  process.env.SANDBOX_CONTROL_TOKEN,
]
  .filter((secret): secret is string => typeof secret === "string" && secret.length >= 8)
  // As they would appear inside a JSON string too.
  .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);

export function scrubText(text: string): string {
  let scrubbed = text;
  for (const secret of KNOWN_SECRETS) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(CENSOR);
  for (const [pattern, replacement, when] of TEXT_RULES) {
    if (!when || when.test(scrubbed)) scrubbed = scrubbed.replace(pattern, replacement as string);
  }
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
