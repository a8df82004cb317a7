// The development mail server `npm run dev` starts (issue 41): an SMTP server that keeps every
// e-mail it is handed, and a web inbox to read them, so a newcomer sees what the dashboard sends
// without setting anything up. maildev 3, on MAILDEV_SMTP_PORT (1025) and MAILDEV_WEB_PORT (1080),
// loopback only. Ports taken (another `npm run dev`) → it says so and stays idle: the dashboard and
// the sandbox go on (npm run dev stops everything when one of its processes ends).
import { MailDev } from "maildev";
import { rmSync } from "node:fs";
import path from "node:path";
import { env } from "../lib/env.js";
import { DATA_DIR } from "../lib/embedded-database.js";

const mailDirectory = path.join(DATA_DIR, `mail-${env.MAILDEV_SMTP_PORT}`);
// `--fresh` (the e2e run's server): start empty, so no e-mail of an earlier run is read as this one's.
if (process.argv.includes("--fresh")) rmSync(mailDirectory, { recursive: true, force: true });

const maildev = new MailDev({
  smtp: env.MAILDEV_SMTP_PORT,
  web: env.MAILDEV_WEB_PORT,
  ip: "127.0.0.1",
  webIp: "127.0.0.1",
  silent: true,
  // Kept under .data/ (one folder per SMTP port: an e2e run's server beside `npm run dev`'s), so
  // e-mails survive a restart; maildev's default folder is shared by every maildev on the machine.
  mailDirectory,
});

try {
  await maildev.start();
  console.log(
    `E-mails sent in development: SMTP on 127.0.0.1:${env.MAILDEV_SMTP_PORT}; read them at http://localhost:${env.MAILDEV_WEB_PORT}`,
  );
} catch (error) {
  console.log(`The development mail server did not start (${String(error)}); the rest runs without it.`);
  setInterval(() => undefined, 1 << 30);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void maildev.stop().finally(() => process.exit(0));
  });
}
