// A CSV download streamed as its pages come, each page read only when the browser wants more bytes.
// A failure after the first bytes ends the stream with an error, so the file is not saved half-written.

export interface CsvStreamSource<Page, Result> {
  /** The first bytes: byte-order mark and header row. */
  head: string;
  /** Read one page per pull; returned (closed) when the browser stops reading. */
  pages: AsyncIterator<Page, Result>;
  lines: (page: Page) => string;
  /** The text after the last page, from the iterator's return value (e.g. a "truncated" note). */
  end?: (result: Result) => string;
  /** A real failure (not a cancel); the stream then ends with that error. Must not throw. */
  onError: (error: unknown) => void;
}

export function csvStream<Page, Result>(source: CsvStreamSource<Page, Result>): ReadableStream<Uint8Array> {
  const { pages, lines, end, onError } = source;
  const encoder = new TextEncoder();
  // A cancel (the browser left, the download was stopped) closes the stream at once while a pull may
  // still wait for its page: that page, or its error, is dropped, since writing to a closed stream throws.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(source.head));
    },
    async pull(controller) {
      try {
        const next = await pages.next();
        if (cancelled) return;
        if (!next.done) {
          controller.enqueue(encoder.encode(lines(next.value)));
          return;
        }
        const last = end?.(next.value);
        if (last) controller.enqueue(encoder.encode(last));
        controller.close();
      } catch (error) {
        if (cancelled) return;
        onError(error);
        controller.error(error);
      }
    },
    async cancel() {
      cancelled = true;
      // Waits for a page being read, then stops: no further page is fetched.
      await pages.return?.().catch(onError);
    },
  });
}
