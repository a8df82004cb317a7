import type pg from "pg";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
// Aliased: a function named use… reads as a React hook to the linter.
import { connect, useTestDatabase as testDatabase } from "./database";
import { freeFixedPorts } from "./free-port";
import { startTestMailServer } from "./mail";
import type { TestMailServer } from "./mail";

// What the notification tests stand on (issue 41): a database of their own, the sandbox as the
// platform, and a mail server of their own that the dashboard's SMTP_URL points at. Call before
// importing the dashboard's modules: they read the environment when they load.

export interface NotificationsTestbed {
  sql: pg.Client;
  sandbox: TestSandbox;
  mail: TestMailServer;
  close(): Promise<void>;
}

export async function startNotificationsTestbed(options: {
  seedOrders: number;
  env?: Record<string, string>;
}): Promise<NotificationsTestbed> {
  const sql = await connect(await testDatabase());
  const [sandboxPort, smtpPort, webPort] = (await freeFixedPorts(3)) as [number, number, number];
  const sandbox = await startTestSandbox({
    config: { port: sandboxPort, publicUrl: `http://localhost:${sandboxPort}`, seedOrders: options.seedOrders },
  });
  const mail = await startTestMailServer(smtpPort, webPort);
  Object.assign(process.env, {
    MARKETPLACE_BASE_URL: sandbox.url,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: "Painel <avisos@painel.example.com>",
    ...options.env,
  });
  return {
    sql,
    sandbox,
    mail,
    async close() {
      await sql.end();
      // The sender's pooled SMTP connections would hold maildev's graceful stop open.
      (await import("@/features/notifications/mail/transport.server")).closeMailTransport();
      await mail.stop();
      await sandbox.close();
    },
  };
}
