"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { FunnelDay } from "@/lib/domain/funnel/stats";

const SERIES = [
  { key: "views", name: "Views", color: "#a1a1aa" },
  { key: "joined", name: "Joined", color: "#1d4ed8" },
  { key: "invited", name: "Invited", color: "#d97706" },
  { key: "completed", name: "Completed", color: "#15803d" },
] as const;

/** Views, joins, invitations and completions per day of joining (the last 90 days shown of the range). */
export function FunnelChart({ days }: { days: FunnelDay[] }) {
  const shown = days.slice(-90);
  return (
    <figure className="mt-2" aria-label={`Views, joins, invitations and completions per day, ${shown[0]!.day} to ${shown.at(-1)!.day}`}>
      <BarChart width={900} height={240} data={shown} className="max-w-full" accessibilityLayer>
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="day" tick={{ fontSize: 11 }} />
        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={48} />
        <Tooltip />
        <Legend />
        {SERIES.map((series) => (
          <Bar key={series.key} dataKey={series.key} name={series.name} fill={series.color} isAnimationActive={false} />
        ))}
      </BarChart>
    </figure>
  );
}
