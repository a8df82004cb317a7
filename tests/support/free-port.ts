import { readFileSync } from "node:fs";
import net from "node:net";

/**
 * The lowest port the kernel hands out to outgoing connections. A port at or above it can be
 * taken at any moment by one of the suite's own client sockets (the database pool, fetches), and
 * a server then fails to bind it: a test that picks a port at random must pick below it.
 */
function ephemeralPortsStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    const parsed = Number(low);
    if (Number.isInteger(parsed) && parsed > 2048) return parsed;
  } catch {
    // Not Linux: IANA's dynamic range.
  }
  return 49_152;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * `count` ports, each free on the loopback right now, below the ephemeral range, and not bound by
 * anything for the test's whole run unless a listener takes it (client sockets never do).
 */
export async function freeFixedPorts(count: number): Promise<number[]> {
  const end = ephemeralPortsStart();
  const start = Math.max(1024, end - 10_000);
  const picked: number[] = [];
  for (let attempt = 0; picked.length < count && attempt < 200; attempt++) {
    const port = start + Math.floor(Math.random() * (end - start));
    if (!picked.includes(port) && (await canListen(port))) picked.push(port);
  }
  if (picked.length < count) throw new Error(`No ${count} free ports between ${start} and ${end} on 127.0.0.1`);
  return picked;
}
