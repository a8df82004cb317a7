import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeFixedPorts } from "../support/free-port";
import { startTestMailServer } from "../support/mail";
import type { TestMailServer } from "../support/mail";

// The development mail server (issue 41): what `npm run dev` starts so that a
// newcomer sees every e-mail, and what the e2e tests read e-mails from (tests/support/mail.ts). Sent with nodemailer
// over SMTP, read back through maildev's REST API.

let mail: TestMailServer;

beforeAll(async () => {
  const [smtpPort, webPort] = (await freeFixedPorts(2)) as [number, number];
  mail = await startTestMailServer(smtpPort, webPort);
}, 30_000);

afterAll(async () => {
  await mail?.stop();
});

describe("the development mail server", () => {
  it("receives what nodemailer sends, with its plain-text part and headers, readable through its API", async () => {
    const transport = nodemailer.createTransport(`smtp://127.0.0.1:${mail.smtpPort}`);
    await transport.sendMail({
      from: "Painel do Vendedor <painel@example.com>",
      to: "seller@example.com",
      subject: "Pedido novo #1042 · R$ 121,00",
      text: "Pedido novo #1042",
      html: "<p>Pedido novo <strong>#1042</strong></p>",
      headers: { "List-Unsubscribe": "<https://painel.example.com/u/abc>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      messageId: "<order.new.abc.email@painel.example.com>",
    });
    const response = await fetch(`http://127.0.0.1:${mail.webPort}/api/email`);
    expect(response.ok).toBe(true);
    const emails = (await response.json()) as { id: string; subject: string; text: string; to: { address: string }[] }[];
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ subject: "Pedido novo #1042 · R$ 121,00", to: [{ address: "seller@example.com" }] });
    expect(emails[0]!.text.trim()).toBe("Pedido novo #1042");
    // The list's headers are a summary; the message as sent carries them all.
    const source = await (await fetch(`http://127.0.0.1:${mail.webPort}/api/email/${emails[0]!.id}/source`)).text();
    expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(source).toMatch(/^Message-ID: <order\.new\.abc\.email@painel\.example\.com>\r?$/im);
  });
});
