// The sandbox's whole configuration, read from the environment once and validated here.
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { isLoopbackHost, type CallbackPolicy } from "@marketplace/network-policy";
import { formatFieldPath } from "@marketplace/api/schemas/field-path";

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const commaSeparatedUrls = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ""),
  )
  .pipe(z.array(httpUrl));

const onOff = (fallback: "on" | "off") =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? fallback).trim().toLowerCase())
    .pipe(z.enum(["on", "off", "true", "false", "1", "0"]))
    .transform((value) => value === "on" || value === "true" || value === "1");

/** An empty variable counts as unset. */
const blankAsUnset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const optionalPositiveInt = z.preprocess(blankAsUnset, z.coerce.number().int().positive().optional());

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const listenHost = z
  .string()
  .trim()
  .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), "must be an IP address (IPv6 without brackets) or a host name");

/**
 * An instant in ISO 8601 with its offset (`2026-11-01T12:00:00Z`, `2026-11-01T09:00:00-03:00`) or a
 * date (`2026-11-01`, its midnight UTC), as milliseconds. Years 2000–2099 only: ObjectIds hold their
 * seconds in 32 bits, and a base far from now is a typing mistake.
 */
const seedBase = z.preprocess(
  blankAsUnset,
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], {
      error: "must be an ISO 8601 date (2026-11-01) or date and time with its offset (2026-11-01T12:00:00Z)",
    })
    .transform((value) => Date.parse(value))
    .refine((ms) => ms >= Date.UTC(2000, 0, 1) && ms < Date.UTC(2100, 0, 1), "must be in the years 2000 to 2099")
    .optional(),
);

/** Sent as a bearer token, so printable ASCII without spaces; long enough not to be guessed. */
const controlToken = z.preprocess(
  blankAsUnset,
  z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, "must be at least 16 printable ASCII characters without spaces (e.g. openssl rand -hex 32)")
    .optional(),
);

// Every variable is described in sandbox/README.md, "Configuration".
export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /** Address to listen on. Anything but a loopback address exposes the sandbox: see isExposed. */
  SANDBOX_HOST: z.preprocess(blankAsUnset, listenHost.default("127.0.0.1")),
  SANDBOX_REDIRECT_URIS: commaSeparatedUrls,
  SANDBOX_CONTROL: onOff("on"),
  SANDBOX_CONTROL_TOKEN: controlToken,
  SANDBOX_ALLOW_PRIVATE_CALLBACKS: onOff("off"),
  SANDBOX_SEED_ORDERS: z.coerce.number().int().min(0).max(1_000_000).default(240),
  SANDBOX_SEED_SELLERS: z.coerce.number().int().min(0).max(99_999).default(0),
  SANDBOX_SEED_SELLER_ORDERS: optionalPositiveInt,
  SANDBOX_SEED: z.coerce.number().int().min(0).max(0xffffffff).default(20261121),
  SANDBOX_SEED_BASE: seedBase,
  SANDBOX_TOKEN_TTL: optionalPositiveInt,
  SANDBOX_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(5000),
  SANDBOX_PUBLIC_URL: httpUrl.optional(),
  SANDBOX_CALLBACK_SCOPE: z.enum(["user", "application"]).default("user"),
  SANDBOX_DELIVERY_LOG_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  SANDBOX_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  SANDBOX_LENIENT: onOff("off"),
  SANDBOX_STATE_FILE: z.preprocess(blankAsUnset, z.string().trim().optional()),
});

/**
 * `user`: one callback URL per (application, user). `application`: the spec's "one string url per
 * integrator application" (Resources → Webhook callback URL) taken literally.
 */
export type CallbackScope = z.infer<typeof sandboxEnvSchema>["SANDBOX_CALLBACK_SCOPE"];

export interface SandboxConfig {
  port: number;
  host: string;
  extraRedirectUris: string[];
  controlEnabled: boolean;
  controlToken: string | undefined;
  allowPrivateCallbacks: boolean;
  seedOrders: number;
  seedSellers: number;
  seedSellerOrders: number;
  seed: number;
  /**
   * The instant seeded orders run up to, in ms; undefined = the sandbox clock when it seeds (a
   * start without saved state, a reset). Pinned, the same seed gives the same ids and dates.
   */
  seedBase: number | undefined;
  tokenTtlSeconds: number | undefined;
  webhookTimeoutMs: number;
  /** Delays before retries 2, 3, ... of a failed webhook delivery. */
  webhookRetryDelaysMs: number[];
  publicUrl: string;
  callbackScope: CallbackScope;
  deliveryLogSize: number;
  deliveryConcurrency: number;
  lenient: boolean;
  /** Absolute; undefined = nothing is kept. */
  stateFile: string | undefined;
}

/** 6 attempts within about a minute. */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 4_000, 8_000, 16_000, 32_000];

export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const parsed = sandboxEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${formatFieldPath(issue.path)}: ${issue.message}`);
    throw new Error(`Invalid sandbox environment:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  return {
    port: values.SANDBOX_PORT,
    host: values.SANDBOX_HOST,
    extraRedirectUris: values.SANDBOX_REDIRECT_URIS,
    controlEnabled: values.SANDBOX_CONTROL,
    controlToken: values.SANDBOX_CONTROL_TOKEN,
    allowPrivateCallbacks: values.SANDBOX_ALLOW_PRIVATE_CALLBACKS,
    seedOrders: values.SANDBOX_SEED_ORDERS,
    seedSellers: values.SANDBOX_SEED_SELLERS,
    seedSellerOrders: values.SANDBOX_SEED_SELLER_ORDERS ?? values.SANDBOX_SEED_SELLERS * 5,
    seed: values.SANDBOX_SEED,
    seedBase: values.SANDBOX_SEED_BASE,
    tokenTtlSeconds: values.SANDBOX_TOKEN_TTL,
    webhookTimeoutMs: values.SANDBOX_WEBHOOK_TIMEOUT_MS,
    webhookRetryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
    publicUrl: (values.SANDBOX_PUBLIC_URL ?? `http://localhost:${values.SANDBOX_PORT}`).replace(/\/+$/, ""),
    callbackScope: values.SANDBOX_CALLBACK_SCOPE,
    deliveryLogSize: values.SANDBOX_DELIVERY_LOG_SIZE,
    deliveryConcurrency: values.SANDBOX_DELIVERY_CONCURRENCY,
    lenient: values.SANDBOX_LENIENT,
    stateFile: values.SANDBOX_STATE_FILE === undefined ? undefined : path.resolve(values.SANDBOX_STATE_FILE),
  };
}

export function defaultSandboxConfig(overrides: Partial<SandboxConfig> = {}): SandboxConfig {
  return { ...loadSandboxConfig({}), ...overrides };
}

/** Listening on anything but a loopback address: other machines may reach the sandbox. */
export function isExposed(config: SandboxConfig): boolean {
  return !isLoopbackHost(config.host);
}

/** Loopback and private callback addresses are fine on a developer's machine, not on a shared network. */
export function callbackPolicy(config: SandboxConfig): CallbackPolicy {
  return { allowLoopbackAndPrivate: !isExposed(config) || config.allowPrivateCallbacks };
}

/**
 * An exposed sandbox with an open control API would let anyone on the network reset it, move its
 * clock and inject faults: it does not start without a control token (or with the control API off).
 */
export function assertSafeExposure(config: SandboxConfig): void {
  if (isExposed(config) && config.controlEnabled && config.controlToken === undefined) {
    throw new Error(
      `SANDBOX_CONTROL_TOKEN is required: SANDBOX_HOST=${config.host} is not a loopback address, so the control API ` +
        `(/_sandbox/: reset, clock, faults, orders) would be open to the network. Set SANDBOX_CONTROL_TOKEN ` +
        `(at least 16 characters, e.g. openssl rand -hex 32) or SANDBOX_CONTROL=off.`,
    );
  }
}
