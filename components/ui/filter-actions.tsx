/** The "Apply filters" and "Clear" buttons of a table's filter form. */
export function FilterActions({ onClear, className = "" }: { onClear: () => void; className?: string }) {
  return (
    <div className={`flex gap-2 ${className}`}>
      <button type="submit" className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white">
        Apply filters
      </button>
      <button type="button" className="rounded-md border border-zinc-300 px-3 py-1.5" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}
