// The kit's command line: `npm run conformance -- --base-url URL [--auth-url URL] --token TOKEN
// [--allow-writes] [--listen PORT] [--callback-url URL] [--webhook-timeout SECONDS]`.
import { parseArgs } from "node:util";
import { z } from "zod";

export interface ConformanceOptions {
  /** `{base_url}` of the spec: the API host (a path prefix is kept). No trailing slash. */
  baseUrl: string;
  /** `{auth_url}`: the browser-facing authorization host; its checks are skipped without it. */
  authUrl?: string;
  /** An access token of a seller account, obtained through the authorization code flow. */
  token: string;
  /** Create a SKU and prices (and, with `listen`, change the callback URL for a while). */
  allowWrites: boolean;
  /** Port of the local webhook receiver (0: any free port); without it no webhook round trip. */
  listen?: number;
  /** Where the platform reaches the receiver (a tunnel to `listen`); default `http://127.0.0.1:{port}/conformance/webhook`. */
  callbackUrl?: string;
  /** How long to wait for the notification of the SKU the kit creates. */
  webhookTimeoutMs: number;
  /** Per request. */
  requestTimeoutMs: number;
}

export const USAGE = `Checks a marketplace platform (the sandbox or the real one) against the integration spec.

Usage: npm run conformance -- --base-url URL --token TOKEN [options]

  --base-url URL           the API host ({base_url}), e.g. http://localhost:4010
  --token TOKEN            a seller's access token (or set CONFORMANCE_TOKEN, kept out of the process list)
  --auth-url URL           the authorization host ({auth_url}); its checks are skipped without it
  --allow-writes           create a SKU and prices on the account (they cannot be deleted)
  --listen PORT            with --allow-writes: receive webhooks on 127.0.0.1:PORT (0 = any free port),
                           point the callback URL there for the run, and restore it afterwards
  --callback-url URL       the public URL that reaches the receiver (e.g. a tunnel to PORT)
  --webhook-timeout SECS   how long to wait for the notification (default 30)
  --request-timeout SECS   per request (default 15)
  --help                   this text

Exit status: 0 when no check failed, 1 when one did, 2 on a usage error, 130 when interrupted (Ctrl-C).`;

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const seconds = (fallback: number) =>
  z.coerce.number().positive("must be a positive number of seconds").max(600, "must be at most 600 seconds").default(fallback);

const argsSchema = z
  .object({
    "base-url": httpUrl,
    "auth-url": httpUrl.optional(),
    token: z.string().trim().min(1, "is required (or set CONFORMANCE_TOKEN)"),
    "allow-writes": z.boolean().default(false),
    listen: z.coerce.number().int("must be a port number").min(0, "must be a port number").max(65535, "must be a port number").optional(),
    "callback-url": httpUrl.optional(),
    "webhook-timeout": seconds(30),
    "request-timeout": seconds(15),
  })
  .superRefine((args, ctx) => {
    // The round trip points the account's callback URL at the kit and creates a SKU: both writes.
    if (args.listen !== undefined && !args["allow-writes"]) {
      ctx.addIssue({
        code: "custom",
        path: ["listen"],
        message: "needs --allow-writes (the round trip changes the callback URL and creates a SKU)",
      });
    }
    if (args["callback-url"] !== undefined && args.listen === undefined) {
      ctx.addIssue({ code: "custom", path: ["callback-url"], message: "needs --listen PORT (the receiver it reaches)" });
    }
  });

export type ParsedArguments = { kind: "run"; options: ConformanceOptions } | { kind: "help" } | { kind: "error"; message: string };

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export function parseConformanceArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ParsedArguments {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        "base-url": { type: "string" },
        "auth-url": { type: "string" },
        token: { type: "string" },
        "allow-writes": { type: "boolean" },
        listen: { type: "string" },
        "callback-url": { type: "string" },
        "webhook-timeout": { type: "string" },
        "request-timeout": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: "help" };

  const parsed = argsSchema.safeParse({ ...values, token: values.token ?? env.CONFORMANCE_TOKEN ?? "" });
  if (!parsed.success) {
    const message = parsed.error.issues.map((issue) => `--${issue.path.join(".")} ${issue.message}`).join("; ");
    return { kind: "error", message };
  }
  const args = parsed.data;
  return {
    kind: "run",
    options: {
      baseUrl: withoutTrailingSlash(args["base-url"]),
      ...(args["auth-url"] ? { authUrl: withoutTrailingSlash(args["auth-url"]) } : {}),
      token: args.token,
      allowWrites: args["allow-writes"],
      ...(args.listen === undefined ? {} : { listen: args.listen }),
      ...(args["callback-url"] ? { callbackUrl: args["callback-url"] } : {}),
      webhookTimeoutMs: args["webhook-timeout"] * 1000,
      requestTimeoutMs: args["request-timeout"] * 1000,
    },
  };
}
