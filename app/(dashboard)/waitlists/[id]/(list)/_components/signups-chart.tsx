"use client";

import { useRef, useState } from "react";
import { Bar, BarChart, CartesianGrid, ReferenceArea, Tooltip, XAxis, YAxis, type MouseHandlerDataParam } from "recharts";
import { usePendingNavigation } from "@/components/pending-navigation";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { signupTableHref, withDays } from "@/lib/dashboard/signup-table-url";

export interface DayCount {
  day: string;
  count: number;
}

const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function label(day: string): string {
  return shortDay.format(new Date(`${day}T00:00:00Z`));
}

/** A press on a bar, and the bar the pointer is over now. */
interface Drag {
  first: string;
  last: string;
}

function dayOf(state: MouseHandlerDataParam): string | undefined {
  return typeof state.activeLabel === "string" ? state.activeLabel : undefined;
}

interface SignupsChartProps {
  days: DayCount[];
  summary: string;
  waitlistId: string;
  state: SignupTableParams;
}

/**
 * Signups per day as bars. Pressing on a bar and releasing it on the same one sets that day as the
 * date range; dragging across bars sets the range they span. The figure's caption carries the
 * same facts as text, and the From/To inputs do the same from the keyboard.
 */
export function SignupsChart({ days, summary, waitlistId, state }: SignupsChartProps) {
  const { navigate } = usePendingNavigation();
  // Recharts calls these handlers a frame later, through the closures of the render that dispatched
  // the event: a quick click's mouseup would still see no drag in state. The ref is always current.
  const dragRef = useRef<Drag | null>(null);
  const [drag, setDragState] = useState<Drag | null>(null);
  function setDrag(next: Drag | null) {
    dragRef.current = next;
    setDragState(next);
  }

  function finish(last: string | undefined) {
    const current = dragRef.current;
    if (!current) return;
    const [from, to] = [current.first, last ?? current.last].sort();
    setDrag(null);
    navigate(signupTableHref(waitlistId, state, withDays(from, to)));
  }

  return (
    <div
      role="img"
      aria-label={summary}
      className="h-28 w-full cursor-pointer select-none text-blue-600 dark:text-blue-400 [&_.recharts-cartesian-axis-tick-value]:fill-zinc-600 dark:[&_.recharts-cartesian-axis-tick-value]:fill-zinc-400"
    >
      <BarChart
        responsive
        accessibilityLayer={false}
        data={days}
        style={{ width: "100%", height: "100%" }}
        margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
        onMouseDown={(chart) => {
          // A press on a bar has started the drag already (below); this catches the space above short bars.
          const day = dayOf(chart);
          if (day && !dragRef.current) setDrag({ first: day, last: day });
        }}
        onMouseMove={(chart) => {
          const day = dayOf(chart);
          const current = dragRef.current;
          if (current && day && day !== current.last) setDrag({ ...current, last: day });
        }}
        onMouseUp={(chart) => finish(dayOf(chart))}
        onMouseLeave={() => setDrag(null)}
      >
        <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
        <XAxis dataKey="day" tickFormatter={label} tick={{ fontSize: 11 }} tickLine={false} minTickGap={24} height={20} />
        <YAxis allowDecimals={false} width={44} tick={{ fontSize: 11 }} tickLine={false} axisLine={false} />
        <Tooltip
          cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
          labelFormatter={(value) => label(String(value))}
          formatter={(value) => [String(value), "Signups"]}
          contentStyle={{ borderRadius: 6, fontSize: 12, color: "#18181b" }}
        />
        {/* The bar's own handlers know their day at once; the chart's learn it from the pointer's last move,
            a frame late for a quick click or a tap. */}
        <Bar
          dataKey="count"
          name="Signups"
          fill="currentColor"
          radius={[2, 2, 0, 0]}
          isAnimationActive={false}
          onMouseDown={(_, index) => setDrag({ first: days[index]!.day, last: days[index]!.day })}
          onMouseUp={(_, index) => finish(days[index]!.day)}
        />
        {drag ? <ReferenceArea x1={drag.first} x2={drag.last} fill="currentColor" fillOpacity={0.2} stroke="currentColor" strokeOpacity={0.5} /> : null}
      </BarChart>
    </div>
  );
}
