"use client";

import Link from "next/link";

// A page that failed while rendering (the platform's answers are explained in place by
// ProblemNotice; this is for what nobody expected). The digest names the server's log line.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section role="alert" className="mx-auto max-w-lg space-y-4 rounded-lg border border-red-200 bg-white p-8">
      <h1 className="text-2xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="text-sm text-zinc-700">
        This page could not be shown. Nothing you entered was sent twice. Try again; if it keeps happening, tell the
        dashboard&apos;s administrator{error.digest ? " this reference" : ""}.
      </p>
      {error.digest ? <p className="font-mono text-xs text-zinc-500">Reference: {error.digest}</p> : null}
      <div className="flex items-center gap-4 text-sm">
        <button type="button" onClick={reset} className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900">
          Try again
        </button>
        <Link href="/" className="text-zinc-600 hover:underline">
          Back to the start
        </Link>
      </div>
    </section>
  );
}
