// The SKU form's inputs and buttons, as Tailwind classes every section shares.

export const inputClass =
  "mt-1 w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-500 aria-invalid:ring-1 aria-invalid:ring-red-500";
export const smallButton = "rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-50";
export const removeButton = "text-sm text-red-800 hover:underline";
