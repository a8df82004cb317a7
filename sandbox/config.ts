// The sandbox's whole configuration, read from the environment once and validated here.
import { z } from "zod";

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

const onOff = z
  .string()
  .optional()
  .transform((value) => (value ?? "on").trim().toLowerCase())
  .pipe(z.enum(["on", "off", "true", "false", "1", "0"]))
  .transform((value) => value === "on" || value === "true" || value === "1");

const optionalPositiveInt = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.coerce.number().int().positive().optional(),
);

export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /** Interface to listen on; unset = every interface (IPv4 and IPv6). */
  SANDBOX_HOST: z.string().min(1).optional(),
  SANDBOX_REDIRECT_URIS: commaSeparatedUrls,
  SANDBOX_CONTROL: onOff,
  /** Orders seeded for seller@example.com; seller2@example.com gets a quarter of it. */
  SANDBOX_SEED_ORDERS: z.coerce.number().int().min(0).max(1_000_000).default(240),
  SANDBOX_SEED: z.coerce.number().int().min(0).max(0xffffffff).default(20261121),
  /** Access token lifetime in seconds; unset = tokens never expire. */
  SANDBOX_TOKEN_TTL: optionalPositiveInt,
  SANDBOX_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(5000),
  /** Origin the sandbox is reached at, for the product images, labels and tracking pages it serves. */
  SANDBOX_PUBLIC_URL: httpUrl.optional(),
  /** Whose callback URL endpoint 10 sets: one per (application, user), or one per application. */
  SANDBOX_CALLBACK_SCOPE: z.enum(["user", "application"]).default("user"),
});

/**
 * `user`: one callback URL per (application, user), notifications signed with the token that set
 * it. `application`: the spec's "one string url per integrator application" (Resources → Webhook
 * callback URL) taken literally; each user's events are signed with that user's own token.
 */
export type CallbackScope = z.infer<typeof sandboxEnvSchema>["SANDBOX_CALLBACK_SCOPE"];

export interface SandboxConfig {
  port: number;
  host: string | undefined;
  extraRedirectUris: string[];
  controlEnabled: boolean;
  seedOrders: number;
  seed: number;
  tokenTtlSeconds: number | undefined;
  webhookTimeoutMs: number;
  /** Delays before retries 2, 3, ... of a failed webhook delivery. */
  webhookRetryDelaysMs: number[];
  /** Origin of the sandbox's own assets (product images, labels, tracking pages) in seeded data. */
  publicUrl: string;
  callbackScope: CallbackScope;
}

/** Exponential backoff: retries after 2, 4, 8, 16 and 32 seconds → 6 attempts within ~1 minute. */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 4_000, 8_000, 16_000, 32_000];

export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const parsed = sandboxEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid sandbox environment:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  return {
    port: values.SANDBOX_PORT,
    host: values.SANDBOX_HOST,
    extraRedirectUris: values.SANDBOX_REDIRECT_URIS,
    controlEnabled: values.SANDBOX_CONTROL,
    seedOrders: values.SANDBOX_SEED_ORDERS,
    seed: values.SANDBOX_SEED,
    tokenTtlSeconds: values.SANDBOX_TOKEN_TTL,
    webhookTimeoutMs: values.SANDBOX_WEBHOOK_TIMEOUT_MS,
    webhookRetryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
    publicUrl: (values.SANDBOX_PUBLIC_URL ?? `http://localhost:${values.SANDBOX_PORT}`).replace(/\/+$/, ""),
    callbackScope: values.SANDBOX_CALLBACK_SCOPE,
  };
}

export function defaultSandboxConfig(overrides: Partial<SandboxConfig> = {}): SandboxConfig {
  return { ...loadSandboxConfig({}), ...overrides };
}
