"use client";

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";

export interface DayCount {
  day: string;
  count: number;
}

const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function label(day: string): string {
  return shortDay.format(new Date(`${day}T00:00:00Z`));
}

/** Signups per day as bars. The figure's caption carries the same facts as text for screen readers. */
export function SignupsChart({ days, summary }: { days: DayCount[]; summary: string }) {
  return (
    <div role="img" aria-label={summary} className="h-56 w-full text-blue-600 dark:text-blue-400 [&_.recharts-cartesian-axis-tick-value]:fill-zinc-600 dark:[&_.recharts-cartesian-axis-tick-value]:fill-zinc-400">
      <BarChart responsive accessibilityLayer={false} data={days} style={{ width: "100%", height: "100%" }} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
        <XAxis dataKey="day" tickFormatter={label} tick={{ fontSize: 12 }} tickLine={false} minTickGap={24} />
        <YAxis allowDecimals={false} width={48} tick={{ fontSize: 12 }} tickLine={false} axisLine={false} />
        <Tooltip
          cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
          labelFormatter={(value) => label(String(value))}
          formatter={(value) => [String(value), "Signups"]}
          contentStyle={{ borderRadius: 6, fontSize: 12, color: "#18181b" }}
        />
        <Bar dataKey="count" name="Signups" fill="currentColor" radius={[2, 2, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
