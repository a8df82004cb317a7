/** A bar chart's key: a swatch of each series' colour (a Tailwind background class) beside its name. */
export function ChartLegend({ series }: { series: readonly { label: string; swatch: string }[] }) {
  return (
    <span className="flex gap-3 text-xs font-normal text-zinc-600">
      {series.map(({ label, swatch }) => (
        <span key={label} className="inline-flex items-center gap-1">
          <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-sm ${swatch}`} />
          {label}
        </span>
      ))}
    </span>
  );
}
