import { getCurrentSeller } from "@/lib/auth/session";
import { exportOrderPages } from "@/lib/data/orders-export";
import { badQuery } from "@/lib/data/list-route";
import { exportHead, exportLines, exportLocaleFor } from "@/lib/orders/export-csv";
import { ordersSchema } from "@/lib/orders/order-filters";

// "Export CSV" of the orders list: exactly the list's current filter (its paging ignored),
// streamed as the platform's pages come (lib/data/orders-export.ts), in the dialect of the
// seller's language (lib/orders/export-csv.ts). A failure after the first bytes ends the stream
// with an error: the page that asked for it says so, and the file is not saved half-written.
export async function GET(request: Request): Promise<Response> {
  const seller = await getCurrentSeller();
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });
  const params = new URL(request.url).searchParams;
  params.delete("page");
  params.delete("size");
  const filters = ordersSchema.parse(params);
  if (!filters.success) return badQuery(filters.error);
  const locale = exportLocaleFor(request.headers.get("accept-language"));
  const pages = exportOrderPages(seller, filters.data);
  const encoder = new TextEncoder();
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(exportHead(locale)));
        return;
      }
      try {
        const next = await pages.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(exportLines(next.value, locale)));
      } catch (error) {
        console.error(`[export] stopped: ${error instanceof Error ? error.message : String(error)}`);
        controller.error(error);
      }
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="orders-${day}.csv"`,
      "cache-control": "private, no-store",
    },
  });
}
