import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MailDev } from "maildev";

// A development mail server (maildev) of a test's own, and its REST API: what the notification
// tests read e-mails back from, as a seller reads them in `npm run dev`'s web inbox.

export interface ReceivedEmail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string; name: string }[];
}

export interface TestMailServer {
  smtpPort: number;
  webPort: number;
  emails(): Promise<ReceivedEmail[]>;
  source(id: string): Promise<string>;
  clear(): Promise<void>;
  /** Stops accepting connections (the SMTP server is down) until start() again; a new start begins empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startTestMailServer(smtpPort: number, webPort: number): Promise<TestMailServer> {
  let server: MailDev | null = null;
  const directories: string[] = [];
  const base = `http://127.0.0.1:${webPort}`;
  // A folder of its own: without one, every maildev on the machine writes into one shared folder,
  // and a concurrent test's start or stop there fails a save (450).
  const start = async () => {
    const mailDirectory = mkdtempSync(path.join(tmpdir(), "test-mail-"));
    server = new MailDev({ smtp: smtpPort, web: webPort, ip: "127.0.0.1", webIp: "127.0.0.1", silent: true, mailDirectory });
    directories.push(mailDirectory);
    await server.start();
  };
  await start();
  return {
    smtpPort,
    webPort,
    async emails() {
      const response = await fetch(`${base}/api/email`);
      if (!response.ok) throw new Error(`maildev answered ${response.status}`);
      return (await response.json()) as ReceivedEmail[];
    },
    async source(id) {
      // Listed as soon as it is received; its source file may still be being written.
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`${base}/api/email/${id}/source`);
        const text = response.ok ? await response.text() : "";
        if (/^Message-ID:/im.test(text) || attempt >= 50) return text;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async clear() {
      await fetch(`${base}/api/email/all`, { method: "DELETE" });
    },
    async stop() {
      await server?.stop();
      server = null;
      for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
    },
    start,
  };
}
