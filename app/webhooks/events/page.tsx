import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { EventLogTable } from "@/components/webhooks/event-log-table";
import { ProcessAllDeadButton } from "@/components/webhooks/webhook-action-buttons";
import { requireSeller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Event log" };

export default async function EventLogPage() {
  await requireSeller();
  return (
    <section className="space-y-6">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">Event log</h1>
        <Link href="/webhooks" className="text-sm font-medium text-brand-700 hover:underline">
          Webhook settings
        </Link>
      </div>
      <ProcessAllDeadButton />
      <Suspense>
        <EventLogTable />
      </Suspense>
    </section>
  );
}
