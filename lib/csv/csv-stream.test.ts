import { describe, expect, it, vi } from "vitest";
import { csvStream } from "./csv-stream";

/** A page the test hands over (or fails) when it chooses. */
function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Pages as the exports read them: an async generator, here one whose second page the test holds. */
function heldPages() {
  const second = later<string>();
  const seen = { fetched: 0, closed: false };
  async function* pages(): AsyncGenerator<string, boolean> {
    try {
      seen.fetched++;
      yield "1,first\n";
      seen.fetched++;
      yield await second.promise;
      seen.fetched++;
      yield "3,third\n";
      return false;
    } finally {
      seen.closed = true;
    }
  }
  return { pages: pages(), second, seen };
}

const decode = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

describe("csvStream", () => {
  it("writes the head, each page's lines, then the end the iterator returns", async () => {
    async function* pages(): AsyncGenerator<string[], boolean> {
      yield ["1", "2"];
      yield ["3"];
      return true;
    }
    const stream = csvStream({
      head: "\uFEFFid\n",
      pages: pages(),
      lines: (page) => page.map((id) => `${id}\n`).join(""),
      end: (truncated) => (truncated ? "# more entries than the file holds\n" : ""),
      onError: () => expect.unreachable(),
    });
    const bytes = await new Response(stream).arrayBuffer();
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe("\uFEFFid\n1\n2\n3\n# more entries than the file holds\n");
  });

  it("stops reading pages and reports nothing when the download is cancelled while a page is read", async () => {
    const { pages, second, seen } = heldPages();
    const returned = vi.spyOn(pages, "return");
    const onError = vi.fn();
    const reader = csvStream({ head: "id,name\n", pages, lines: (page) => page, onError }).getReader();
    expect(decode((await reader.read()).value)).toBe("id,name\n");
    expect(decode((await reader.read()).value)).toBe("1,first\n");
    // Reading the first page asked for the second: the browser leaves while it is on its way.
    await vi.waitFor(() => expect(seen.fetched).toBe(2));
    const cancelled = reader.cancel();
    second.resolve("2,second\n");
    await cancelled;
    expect(onError).not.toHaveBeenCalled();
    expect(returned).toHaveBeenCalledOnce();
    expect(seen).toEqual({ fetched: 2, closed: true });
  });

  it("reports nothing when the page being read fails after the cancel", async () => {
    const { pages, second, seen } = heldPages();
    const onError = vi.fn();
    const reader = csvStream({ head: "id,name\n", pages, lines: (page) => page, onError }).getReader();
    await reader.read();
    await reader.read();
    await vi.waitFor(() => expect(seen.fetched).toBe(2));
    const cancelled = reader.cancel();
    second.reject(new Error("the platform connection was closed"));
    await cancelled;
    expect(onError).not.toHaveBeenCalled();
    expect(seen.closed).toBe(true);
  });

  it("ends the stream with the error of a page that fails, and reports it once", async () => {
    const { pages, second, seen } = heldPages();
    const onError = vi.fn();
    const reader = csvStream({ head: "id,name\n", pages, lines: (page) => page, onError }).getReader();
    expect(decode((await reader.read()).value)).toBe("id,name\n");
    expect(decode((await reader.read()).value)).toBe("1,first\n");
    await vi.waitFor(() => expect(seen.fetched).toBe(2));
    const failure = new Error("the platform answered 500");
    second.reject(failure);
    await expect(reader.read()).rejects.toBe(failure);
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
  });
});
