import type { Metadata } from "next";
import Link from "next/link";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { BulkPriceUpload } from "@/components/prices/bulk-price-upload";
import { requireSeller } from "@/lib/auth/session";
import { requiredScopesFor } from "@/lib/marketplace/client";

export const metadata: Metadata = { title: "Bulk price update" };

const EXAMPLE = `sku,type,value,currency
CAM-001,sell,49.90,BRL
CAM-001,list,59.90,BRL
TEN-002,sell,"279,90",BRL`;

export default async function BulkPricesPage() {
  const seller = await requireSeller();
  // The preview reads current prices (portfolio:read), applying creates prices (portfolio:write).
  const needed = [...new Set([...requiredScopesFor("listPrices"), ...requiredScopesFor("createPrice")])];
  const missing = needed.filter((scope) => seller.connection.scopesMissing.includes(scope));

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Bulk price update</h1>
        <Link href="/prices" className="text-sm font-medium text-brand-700 hover:underline">
          ← Prices
        </Link>
      </div>

      <div className="grid gap-6 text-sm text-zinc-700 md:grid-cols-2">
        <div className="space-y-2">
          <p>
            Upload a CSV file with a header row and one price per row. You see a preview against your current prices first;
            nothing changes at the marketplace until you apply.
          </p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              <code className="font-mono">sku</code>: the SKU code.
            </li>
            <li>
              <code className="font-mono">type</code>: <code className="font-mono">list</code> or{" "}
              <code className="font-mono">sell</code>.
            </li>
            <li>
              <code className="font-mono">value</code>: the amount in currency units, with a point or a comma for decimals
              (<code className="font-mono">12.34</code> or <code className="font-mono">&quot;12,34&quot;</code>, quoted in a
              comma-separated file), without thousands separators.
            </li>
            <li>
              <code className="font-mono">currency</code>: an ISO-4217 code such as <code className="font-mono">BRL</code>.
            </li>
          </ul>
          <p>
            Amounts keep the precision of the current price (its normalizer); a new price uses cents. Each SKU and type may
            appear once. Files saved with semicolons (<code className="font-mono">;</code>) work too.
          </p>
        </div>
        <figure className="space-y-1">
          <figcaption className="font-medium">Example</figcaption>
          <pre className="overflow-x-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs">{EXAMPLE}</pre>
          <p className="text-xs text-zinc-500">
            When the marketplace limits how fast prices can be sent, the update slows down and keeps going; every row ends
            applied, rejected (with the marketplace&apos;s reason), failed or invalid, and you can download the results.
          </p>
        </figure>
      </div>

      {missing.length > 0 ? <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="bulk price updates" /> : <BulkPriceUpload seller={seller.id} />}
    </section>
  );
}
