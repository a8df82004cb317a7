"use client";

import { useTranslations } from "next-intl";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { BRAND_COLOR } from "@/lib/brand";
import { moneyToDecimalString } from "@/lib/money";
import type { PricePoint } from "@/features/prices/price-rows";
import { useDisplayFormat } from "@/lib/format";

/** The price's history as a line: each point a price that was set, oldest first. */
export function PriceHistoryChart({ history }: { history: PricePoint[] }) {
  const t = useTranslations("prices.chart");
  const format = useDisplayFormat();
  // The chart needs numbers to place points; labels and the tooltip use the exact formatter.
  const points = history.map((item) => ({
    at: new Date(item.at).getTime(),
    amount: Number(moneyToDecimalString(item.amount)),
    label: format.money(item.amount),
  }));
  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="price-history-chart" data-points={points.length}>
      <figcaption className="mb-2 text-sm font-medium">{t("caption")}</figcaption>
      <div className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={["dataMin", "dataMax"]}
              tickFormatter={(value: number) => format.date(new Date(value), "compact")}
              fontSize={12}
            />
            <YAxis dataKey="amount" fontSize={12} width={72} domain={["auto", "auto"]} />
            <Tooltip
              // The tooltip's words in the page's text colour: the line's green on white is below AAA contrast.
              itemStyle={{ color: "#18181b" }}
              labelStyle={{ color: "#18181b" }}
              labelFormatter={(value) => format.date(new Date(Number(value)), "compact")}
              formatter={(_value, _name, entry) => [(entry.payload as { label: string }).label, t("price")]}
            />
            <Line type="stepAfter" dataKey="amount" stroke={BRAND_COLOR} strokeWidth={2} dot={{ r: 4 }} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
