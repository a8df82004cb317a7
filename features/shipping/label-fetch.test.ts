import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLabelFetcher, labelRequestHeaders, labelUrlRefusal } from "./label-fetch.server";
import type { HostLookup, LabelFetcherOptions } from "./label-fetch.server";

// The URL safety rules of label fetching, against real local HTTP servers: "platform" stands for
// MARKETPLACE_BASE_URL (the sandbox on this machine), "elsewhere" for any other host a label's
// address or a redirect could point at.

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const TOKEN = "the-shops-token";

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let platform: string;
let elsewhere: string;
let platformSeen: Seen[] = [];
let elsewhereSeen: Seen[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  const platformServer = createServer((request, response) => {
    platformSeen.push({ path: request.url ?? "", headers: request.headers });
    const path = request.url ?? "";
    if (path === "/label.pdf") return void response.writeHead(200, { "content-type": "application/pdf" }).end(PDF);
    if (path === "/octets") return void response.writeHead(200, { "content-type": "application/octet-stream" }).end(PDF);
    if (path === "/html") return void response.writeHead(200, { "content-type": "text/html" }).end("<h1>Shipping label</h1>");
    if (path === "/missing") return void response.writeHead(404).end();
    if (path === "/unavailable") return void response.writeHead(503).end();
    if (path === "/declared-big")
      return void response.writeHead(200, { "content-type": "application/pdf", "content-length": String(1024 * 1024) }).end(PDF);
    if (path === "/endless") {
      // No length declared: the reader must stop by itself.
      response.writeHead(200, { "content-type": "application/pdf" });
      const chunk = Buffer.concat([PDF, Buffer.alloc(16 * 1024)]);
      const timer = setInterval(() => response.write(chunk), 1);
      response.on("close", () => clearInterval(timer));
      return;
    }
    if (path === "/slow-headers") return void setTimeout(() => response.writeHead(200).end(PDF), 2_000);
    if (path === "/slow-body") {
      response.writeHead(200, { "content-type": "application/pdf" });
      response.write(PDF.subarray(0, 5));
      return void setTimeout(() => response.end(PDF.subarray(5)), 2_000);
    }
    if (path === "/to-same-origin") return void response.writeHead(302, { location: "/label.pdf" }).end();
    if (path === "/to-elsewhere-http") return void response.writeHead(302, { location: `${elsewhere}/label.pdf` }).end();
    if (path === "/to-private") return void response.writeHead(307, { location: "https://10.20.30.40/label.pdf" }).end();
    if (path === "/to-loopback-https")
      return void response.writeHead(301, { location: `${platform.replace("http:", "https:")}/label.pdf` }).end();
    if (path === "/loop") return void response.writeHead(302, { location: "/loop" }).end();
    response.writeHead(500).end();
  });
  const elsewhereServer = createServer((request, response) => {
    elsewhereSeen.push({ path: request.url ?? "", headers: request.headers });
    response.writeHead(200, { "content-type": "application/pdf" }).end(PDF);
  });
  servers.push(platformServer, elsewhereServer);
  platform = await listen(platformServer);
  // Another origin on this machine: the same loopback, another port.
  elsewhere = await listen(elsewhereServer);
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  platformSeen = [];
  elsewhereSeen = [];
});

/** A fetcher for one call, closed after it. */
async function fetchLabel(url: string, options: Partial<LabelFetcherOptions> = {}) {
  const fetcher = createLabelFetcher({ platformBaseUrl: platform, accessToken: TOKEN, ...options });
  try {
    return await fetcher.fetch(url);
  } finally {
    fetcher.close();
  }
}

const resolvesTo =
  (...addresses: string[]): HostLookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("label fetching", () => {
  it("fetches a PDF from the platform's origin over plain http, with the shop's token", async () => {
    const result = await fetchLabel(`${platform}/label.pdf`);
    expect(result.ok && Buffer.from(result.bytes).equals(PDF)).toBe(true);
    expect(platformSeen).toHaveLength(1);
    expect(platformSeen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(platformSeen[0]!.headers.accept).toBe("application/pdf");
  });

  it("takes a PDF whatever its declared type, and follows a redirect within the platform's origin", async () => {
    expect((await fetchLabel(`${platform}/octets`)).ok).toBe(true);
    expect(await fetchLabel(`${platform}/to-same-origin`)).toMatchObject({ ok: true });
    expect(platformSeen.map((seen) => [seen.path, seen.headers.authorization])).toEqual([
      ["/octets", `Bearer ${TOKEN}`],
      ["/to-same-origin", `Bearer ${TOKEN}`],
      ["/label.pdf", `Bearer ${TOKEN}`],
    ]);
  });

  it("refuses plain http to any other origin, without connecting (another port, another name for the same host)", async () => {
    expect(await fetchLabel(`${elsewhere}/label.pdf`)).toMatchObject({ ok: false, reason: "insecure" });
    expect(await fetchLabel(`${platform.replace("127.0.0.1", "localhost")}/label.pdf`)).toMatchObject({ ok: false, reason: "insecure" });
    expect(elsewhereSeen).toEqual([]);
    expect(platformSeen).toEqual([]);
  });

  it("refuses private addresses, as literals or as what a name resolves to (any of its addresses)", async () => {
    for (const url of [
      "https://10.1.2.3/label.pdf",
      "https://192.168.0.7/label.pdf",
      "https://[fd00::1]/label.pdf",
      "https://169.254.169.254/latest/meta-data",
    ]) {
      expect(await fetchLabel(url), url).toMatchObject({ ok: false, reason: "private_address" });
    }
    expect(await fetchLabel("https://labels.internal/x.pdf", { lookup: resolvesTo("172.16.4.2") })).toMatchObject({
      ok: false,
      reason: "private_address",
    });
    expect(await fetchLabel("https://labels.mixed/x.pdf", { lookup: resolvesTo("93.184.215.14", "10.0.0.8") })).toMatchObject({
      ok: false,
      reason: "private_address",
    });
  });

  it("refuses loopback that is not the platform's origin (another scheme, or a name that resolves there)", async () => {
    expect(await fetchLabel(`${platform.replace("http:", "https:")}/label.pdf`)).toMatchObject({ ok: false, reason: "private_address" });
    expect(await fetchLabel("https://localhost/label.pdf", { lookup: resolvesTo("127.0.0.1", "::1") })).toMatchObject({
      ok: false,
      reason: "private_address",
    });
    expect(await fetchLabel("https://[::1]:443/label.pdf")).toMatchObject({ ok: false, reason: "private_address" });
    expect(await fetchLabel("https://[::ffff:127.0.0.1]/label.pdf")).toMatchObject({ ok: false, reason: "private_address" });
    expect(platformSeen).toEqual([]);
  });

  it("stops reading past the size cap, declared or not", async () => {
    const limits = { maxBytes: 64 * 1024 };
    expect(await fetchLabel(`${platform}/declared-big`, { limits })).toMatchObject({ ok: false, reason: "too_large" });
    expect(await fetchLabel(`${platform}/endless`, { limits })).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("gives up on a server too slow to answer, or to finish", async () => {
    const limits = { timeoutMs: 300 };
    const started = performance.now();
    expect(await fetchLabel(`${platform}/slow-headers`, { limits })).toMatchObject({ ok: false, reason: "timeout" });
    expect(await fetchLabel(`${platform}/slow-body`, { limits })).toMatchObject({ ok: false, reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("refuses what is not a PDF, and says the HTTP status of a failure", async () => {
    expect(await fetchLabel(`${platform}/html`)).toMatchObject({ ok: false, reason: "not_pdf" });
    expect(await fetchLabel(`${platform}/missing`)).toMatchObject({ ok: false, reason: "http_error", status: 404 });
    expect(await fetchLabel(`${platform}/unavailable`)).toMatchObject({ ok: false, reason: "http_error", status: 503 });
  });

  it("refuses a redirect elsewhere: plain http to another origin, a private address, loopback under https, or too many", async () => {
    expect(await fetchLabel(`${platform}/to-elsewhere-http`)).toMatchObject({ ok: false, reason: "redirect" });
    expect(await fetchLabel(`${platform}/to-private`)).toMatchObject({ ok: false, reason: "redirect" });
    expect(await fetchLabel(`${platform}/to-loopback-https`)).toMatchObject({ ok: false, reason: "redirect" });
    expect(await fetchLabel(`${platform}/loop`)).toMatchObject({ ok: false, reason: "redirect" });
    expect(elsewhereSeen).toEqual([]);
  });

  it("refuses what is not a web address, or carries credentials", async () => {
    expect(await fetchLabel("")).toMatchObject({ ok: false, reason: "no_url" });
    expect(await fetchLabel("not an address")).toMatchObject({ ok: false, reason: "invalid_url" });
    expect(await fetchLabel("file:///etc/passwd")).toMatchObject({ ok: false, reason: "invalid_url" });
    expect(await fetchLabel(`${platform.replace("http://", "http://user:secret@")}/label.pdf`)).toMatchObject({
      ok: false,
      reason: "invalid_url",
    });
    expect(platformSeen).toEqual([]);
  });

  it("says a host cannot be reached", async () => {
    const closed = createServer();
    const origin = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect(await fetchLabel(`${origin}/label.pdf`, { platformBaseUrl: origin })).toMatchObject({ ok: false, reason: "unreachable" });
    const nowhere: HostLookup = async () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }));
    expect(await fetchLabel("https://no-such-host.example/label.pdf", { lookup: nowhere })).toMatchObject({
      ok: false,
      reason: "unreachable",
    });
  });

  it("stops when the caller gives up", async () => {
    const fetcher = createLabelFetcher({ platformBaseUrl: platform, accessToken: TOKEN });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("the browser left")), 100);
    await expect(fetcher.fetch(`${platform}/slow-headers`, { signal: controller.signal })).rejects.toThrow("the browser left");
    fetcher.close();
  });

  it("stops reading at the first piece the caller will not take, and throws if the caller aborted then", async () => {
    const fetcher = createLabelFetcher({ platformBaseUrl: platform, accessToken: TOKEN });
    try {
      // A run's budget shared by its labels: 100 kB left, an endless body.
      let taken = 0;
      const claimBytes = (bytes: number) => {
        if (taken + bytes > 100_000) return false;
        taken += bytes;
        return true;
      };
      expect(await fetcher.fetch(`${platform}/endless`, { claimBytes })).toMatchObject({ ok: false, reason: "too_large" });
      expect(taken).toBeLessThanOrEqual(100_000);
      expect(taken).toBeGreaterThan(0);

      const controller = new AbortController();
      const stopRun = () => {
        controller.abort(new Error("the run is over its cap"));
        return false;
      };
      await expect(fetcher.fetch(`${platform}/endless`, { signal: controller.signal, claimBytes: stopRun })).rejects.toThrow(
        "the run is over its cap",
      );
      const whole = await fetcher.fetch(`${platform}/label.pdf`, { claimBytes: () => true });
      expect(whole.ok && Buffer.from(whole.bytes).equals(PDF)).toBe(true);
    } finally {
      fetcher.close();
    }
  });
});

describe("the token", () => {
  const origin = "http://localhost:4010";
  const headers = (url: string) => labelRequestHeaders(new URL(url), origin, TOKEN);

  it("goes to the platform's origin only: not to another scheme, port or name of the same host", () => {
    expect(headers("http://localhost:4010/_assets/labels/abc").authorization).toBe(`Bearer ${TOKEN}`);
    for (const url of [
      "https://localhost:4010/x",
      "http://localhost:4011/x",
      "http://127.0.0.1:4010/x",
      "https://labels.example/x.pdf",
      "http://localhost.evil.example:4010/x",
    ]) {
      expect(headers(url).authorization, url).toBeUndefined();
    }
  });

  it("is never sent when the shop has none", () => {
    expect(labelRequestHeaders(new URL("http://localhost:4010/x"), origin, null)).toEqual({ accept: "application/pdf" });
  });

  it("allows https anywhere and http on the platform's origin only", () => {
    expect(labelUrlRefusal(new URL("https://labels.example/x.pdf"), origin)).toBeNull();
    expect(labelUrlRefusal(new URL("http://localhost:4010/x"), origin)).toBeNull();
    expect(labelUrlRefusal(new URL("http://labels.example/x.pdf"), origin)).toBe("insecure");
    expect(labelUrlRefusal(new URL("ftp://labels.example/x.pdf"), origin)).toBe("invalid_url");
  });
});
