import "server-only";
import { connect } from "node:net";
import type { Socket } from "node:net";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { env } from "@/lib/env";
import type { ComposedMail } from "@/features/notifications/mail/compose.server";

// SMTP (nodemailer, issue 41): one pooled transport per process. Every wait is bounded, so a send
// never outlives the outbox's lease (delivery.server.ts).

export const SMTP_TIMEOUT_MS = 20_000;

let transport: Transporter | null = null;

/**
 * The pool's connections, opened here with Nagle's algorithm off. nodemailer leaves it on, so the
 * end of every message waited for the server's delayed acknowledgement (about 40 ms on Linux): 4
 * connections carried about 20 e-mails/s each (bench:notifications, issue 41). STARTTLS is then
 * negotiated by nodemailer over this socket; smtps:// connections it opens itself. A connection
 * that fails here is left to nodemailer to try again and report as its own.
 */
function connectWithoutDelay(
  options: { host?: string; port?: number },
  callback: (error: Error | null, socket: { connection: Socket } | false) => void,
) {
  const socket = connect({ host: options.host ?? "127.0.0.1", port: options.port ?? 25, noDelay: true });
  const timer = setTimeout(() => socket.destroy(new Error("connection timeout")), SMTP_TIMEOUT_MS / 2);
  const failed = () => {
    clearTimeout(timer);
    callback(null, false);
  };
  socket.once("error", failed);
  socket.once("connect", () => {
    clearTimeout(timer);
    socket.removeListener("error", failed);
    callback(null, { connection: socket });
  });
}

function smtpOptions(url: string) {
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
    // A local development server (maildev) speaks plain SMTP; anything else must offer STARTTLS.
    ignoreTLS: ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname),
    pool: true as const,
    // As many as the outbox sends at once (SENDS_IN_FLIGHT): with 4, half the sends waited for a
    // connection, and on a full machine two instances sent 191 e-mails/s against 200 orders/s;
    // with 8, 200/s and p95 5.9 s instead of 13.0 (bench:notifications, docs/benchmarks.md).
    maxConnections: 8,
    ...(secure ? {} : { getSocket: connectWithoutDelay }),
    connectionTimeout: SMTP_TIMEOUT_MS / 2,
    greetingTimeout: SMTP_TIMEOUT_MS / 2,
    socketTimeout: SMTP_TIMEOUT_MS,
  };
}

export type SendFailure = { kind: "unreachable" | "refused_for_now" | "refused"; error: string };

/** Why a send failed, in words with no address in them (the log and the outbox keep this). */
export function classifySmtpError(error: unknown): SendFailure {
  const { responseCode, code } = (error ?? {}) as { responseCode?: number; code?: string };
  // 421 is the server itself unavailable (shutting down, overloaded: RFC 5321 4.2.3), not this message refused.
  if (typeof responseCode === "number" && responseCode !== 421) {
    return { kind: responseCode >= 500 ? "refused" : "refused_for_now", error: `SMTP ${responseCode}${code ? ` (${code})` : ""}` };
  }
  return { kind: "unreachable", error: `SMTP server not reachable${responseCode ? ` (${responseCode})` : code ? ` (${code})` : ""}` };
}

export async function sendMail(mail: ComposedMail): Promise<void> {
  if (!env.SMTP_URL) throw new Error("E-mail is off: SMTP_URL is not set");
  transport ??= nodemailer.createTransport(smtpOptions(env.SMTP_URL));
  await transport.sendMail({
    from: env.MAIL_FROM,
    to: mail.to.name ? mail.to : mail.to.address,
    subject: mail.subject,
    text: mail.text,
    // The HTML part in base64, not nodemailer's choice of quoted-printable: encoding MJML's 10 kB
    // of HTML took 1.3–1.7 ms of the thread per e-mail as quoted-printable, 0.4–0.7 ms as base64,
    // for 11 % more bytes (docs/benchmarks.md, bench:notifications). As an alternative after the
    // text, the message is the one `html` makes; the plain text keeps nodemailer's choice.
    alternatives: [{ contentType: "text/html; charset=utf-8", content: mail.html, contentTransferEncoding: "base64" }],
    messageId: mail.messageId,
    ...(mail.unsubscribeUrl
      ? {
          list: { unsubscribe: mail.unsubscribeUrl },
          headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click", "Auto-Submitted": "auto-generated" },
        }
      : { headers: { "Auto-Submitted": "auto-generated" } }),
  });
}

export function closeMailTransport() {
  transport?.close();
  transport = null;
}
