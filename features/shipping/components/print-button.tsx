"use client";

/** Opens the browser's print dialog; the page's print styles (Tailwind `print:`) decide what goes on paper. */
export function PrintButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="min-h-11 rounded-md bg-brand-700 px-4 font-medium text-white hover:bg-brand-900 md:min-h-9"
    >
      {label}
    </button>
  );
}
