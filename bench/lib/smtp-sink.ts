// A mail server that accepts every message and keeps only its Message-ID and when it was accepted
// (bench:notifications). Plain SMTP on node:net: the dashboard speaks it to 127.0.0.1 without
// STARTTLS (features/notifications/mail/transport.server.ts), and a sink needs no more than the
// handful of commands below. smtp-server (there as maildev's dependency) would have to be declared
// in bench/package.json, and its parsing would add CPU to the process that also sends the load.
import { createServer } from "node:net";
import type { Server, Socket } from "node:net";

export interface SunkMessage {
  /** The Message-ID header as written, angle brackets included; null when the message had none. */
  messageId: string | null;
  /** When the message's last line arrived and it was accepted, in ms since the epoch (sub-ms). */
  at: number;
  /** When its MAIL command arrived (the client's transaction for it began), and its DATA command. */
  mailAt: number;
  dataAt: number;
  /** Its size as sent, in bytes. */
  bytes: number;
  /** The connection it came on (numbered from 1), and when that connection's previous message was accepted. */
  connection: number;
  previousAt: number | null;
}

export interface SmtpSink {
  /** Every message accepted, in order. */
  readonly messages: SunkMessage[];
  /** Connections open now, and the most open at once since `peak` was last set. */
  readonly connections: { open: number; peak: number };
  close(): Promise<void>;
}

const END_OF_DATA = "\r\n.\r\n";
const MESSAGE_ID = /^message-id:[ \t]*(<[^>\r\n]*>)/im;
export const wallClockMs = () => performance.timeOrigin + performance.now();

function serve(socket: Socket, connection: number, messages: SunkMessage[]) {
  // latin1 keeps one character per byte, so a UTF-8 sequence split across chunks cannot break the
  // search for the end of the data; only the ASCII headers are read.
  socket.setEncoding("latin1");
  socket.setNoDelay(true);
  let buffer = "";
  let inData = false;
  // How far the data was searched for its end mark, so a long message is not searched again from its start.
  let scanned = 0;
  let mailAt = 0;
  let dataAt = 0;
  let previousAt: number | null = null;
  const reply = (line: string) => socket.write(`${line}\r\n`);
  const command = (line: string) => {
    const verb = line.slice(0, 4).toUpperCase();
    if (verb === "EHLO") reply("250-bench-sink\r\n250-8BITMIME\r\n250 SMTPUTF8");
    else if (verb === "MAIL") {
      mailAt = wallClockMs();
      reply("250 OK");
    } else if (verb === "HELO" || verb === "RCPT" || verb === "RSET" || verb === "NOOP") reply("250 OK");
    else if (verb === "DATA") {
      dataAt = wallClockMs();
      inData = true;
      scanned = 0;
      // The data's first line may be the end mark itself: a line break before it makes it findable.
      buffer = `\r\n${buffer}`;
      reply("354 End data with <CR><LF>.<CR><LF>");
    } else if (verb === "QUIT") {
      reply("221 Bye");
      socket.end();
    } else reply("502 Command not implemented");
  };
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (;;) {
      if (inData) {
        const end = buffer.indexOf(END_OF_DATA, Math.max(0, scanned - END_OF_DATA.length));
        if (end < 0) {
          scanned = buffer.length;
          return;
        }
        const data = buffer.slice(2, end);
        buffer = buffer.slice(end + END_OF_DATA.length);
        inData = false;
        const headerEnd = data.indexOf("\r\n\r\n");
        const at = wallClockMs();
        messages.push({
          messageId: MESSAGE_ID.exec(headerEnd < 0 ? data : data.slice(0, headerEnd))?.[1] ?? null,
          at,
          mailAt,
          dataAt,
          bytes: data.length,
          connection,
          previousAt,
        });
        previousAt = at;
        reply("250 OK: queued");
        continue;
      }
      const end = buffer.indexOf("\r\n");
      if (end < 0) return;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      command(line);
    }
  });
  socket.on("error", () => socket.destroy());
  reply("220 bench-sink ESMTP");
}

/** Listens on 127.0.0.1:`port`. */
export function startSmtpSink(port: number): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const connections = { open: 0, peak: 0 };
  let opened = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    connections.peak = Math.max(connections.peak, ++connections.open);
    socket.on("close", () => {
      sockets.delete(socket);
      connections.open--;
    });
    serve(socket, ++opened, messages);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({
        messages,
        connections,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
