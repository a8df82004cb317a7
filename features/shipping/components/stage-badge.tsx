import { useTranslations } from "next-intl";
import type { PackingStage } from "@/features/shipping/stages";

const TONES: Record<PackingStage, string> = {
  to_pick: "bg-zinc-100 text-zinc-800",
  picked: "bg-amber-100 text-amber-900",
  packed: "bg-brand-100 text-brand-900",
};

/** An order's packing stage in words, coloured by how far along it is. */
export function StageBadge({ stage }: { stage: PackingStage }) {
  const t = useTranslations("shipping.stages");
  return <span className={`inline-flex rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[stage]}`}>{t(stage)}</span>;
}
