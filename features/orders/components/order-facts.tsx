import type { ReactNode } from "react";

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-5" data-testid={testId}>
      <h2 className="mb-3 text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Label and value side by side from `sm` up; on a phone the label sits above its value. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="space-y-2 text-sm sm:grid sm:grid-cols-[minmax(8rem,auto)_minmax(0,1fr)] sm:gap-x-4 sm:gap-y-1.5 sm:space-y-0">
      {rows.map(([label, value]) => (
        <div key={label} className="sm:contents">
          <dt className="text-zinc-600">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
