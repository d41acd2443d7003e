"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { Bar, BarChart, CartesianGrid, Cell, ReferenceArea, Tooltip, XAxis, YAxis, type MouseHandlerDataParam } from "recharts";
import { formatCount } from "@/components/format";
import { usePendingNavigation } from "@/components/pending-navigation";
import { focusRing } from "@/components/styles";
import { niceTicks } from "@/lib/dashboard/chart-ticks";
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

/** A press on a bar (or the keyboard cursor's anchor), and the bar the pointer (or cursor) is on now. */
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
  /** Today's day, when the chart shows it: a day not over yet, drawn lighter and dashed. */
  partialDay: string | undefined;
  waitlistId: string;
  state: SignupTableParams;
}

/** The keyboard cursor's selection in words, for the live region. */
function describe(days: DayCount[], cursor: Drag, partialDay: string | undefined): string {
  const [from, to] = [cursor.first, cursor.last].sort() as [string, string];
  const picked = days.filter((entry) => entry.day >= from && entry.day <= to);
  const count = picked.reduce((sum, entry) => sum + entry.count, 0);
  const partial = to === partialDay ? " (today, so far)" : "";
  const signups = `${formatCount(count)} signup${count === 1 ? "" : "s"}${partial}`;
  const range = from === to ? label(from) : `${label(from)} to ${label(to)}, ${picked.length} days`;
  return `${range}: ${signups}. Enter shows ${from === to ? "this day" : "these days"}.`;
}

/**
 * Signups per day as bars. Pressing on a bar and releasing it on the same one sets that day as the
 * date range; dragging across bars sets the range they span. From the keyboard the chart is one tab
 * stop: arrow keys move a cursor by a day, Shift+arrows extend it, Home/End jump to the ends, Enter
 * sets the range, Escape drops the cursor; a live region reads out what the cursor covers.
 */
export function SignupsChart({ days, summary, partialDay, waitlistId, state }: SignupsChartProps) {
  const { navigate } = usePendingNavigation();
  const helpId = useId();
  // Recharts calls these handlers a frame later, through the closures of the render that dispatched
  // the event: a quick click's mouseup would still see no drag in state. The ref is always current.
  const dragRef = useRef<Drag | null>(null);
  const [drag, setDragState] = useState<Drag | null>(null);
  const [cursor, setCursor] = useState<Drag | null>(null);
  function setDrag(next: Drag | null) {
    dragRef.current = next;
    setDragState(next);
  }

  function apply(range: Drag) {
    const [from, to] = [range.first, range.last].sort();
    navigate(signupTableHref(waitlistId, state, withDays(from, to)));
  }

  function finish(last: string | undefined) {
    const current = dragRef.current;
    if (!current) return;
    setDrag(null);
    apply({ first: current.first, last: last ?? current.last });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (days.length === 0) return;
    const at = (day: string) => days.findIndex((entry) => entry.day === day);
    const current = cursor ?? { first: days.at(-1)!.day, last: days.at(-1)!.day };
    const index = at(current.last);
    const target: Record<string, number> = { ArrowLeft: index - 1, ArrowDown: index - 1, ArrowRight: index + 1, ArrowUp: index + 1, Home: 0, End: days.length - 1 };
    if (event.key in target) {
      event.preventDefault();
      const day = days[Math.min(days.length - 1, Math.max(0, target[event.key]!))]!.day;
      setCursor(event.shiftKey ? { first: current.first, last: day } : { first: day, last: day });
    } else if (event.key === "Enter" && cursor) {
      event.preventDefault();
      apply(cursor);
    } else if (event.key === "Escape" && cursor) {
      event.preventDefault();
      setCursor(null);
    }
  }

  const highlight = drag ?? cursor;
  const ticks = niceTicks(Math.max(0, ...days.map((entry) => entry.count)));
  return (
    <div
      tabIndex={0}
      role="group"
      aria-roledescription="chart"
      aria-label="Signups per day"
      aria-describedby={helpId}
      onKeyDown={onKeyDown}
      onFocus={() => setCursor((current) => current ?? (days.length > 0 ? { first: days.at(-1)!.day, last: days.at(-1)!.day } : null))}
      onBlur={() => setCursor(null)}
      className={`${focusRing} h-full rounded-sm`}
    >
      <p id={helpId} className="sr-only">
        Arrow keys move by a day, Shift and an arrow key extend the range, Enter shows the days picked.
      </p>
      <p className="sr-only" aria-live="polite" data-testid="chart-cursor">
        {cursor ? describe(days, cursor, partialDay) : ""}
      </p>
      <div
        role="img"
        aria-label={summary}
        className="h-16 w-full cursor-pointer sm:h-28 select-none text-blue-600 dark:text-blue-400 [&_.recharts-cartesian-axis-tick-value]:fill-zinc-600 dark:[&_.recharts-cartesian-axis-tick-value]:fill-zinc-400"
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
          <YAxis
            allowDecimals={false}
            domain={[0, ticks.at(-1)!]}
            ticks={ticks}
            interval={0}
            tickFormatter={(value: number) => formatCount(value)}
            width={44}
            tick={{ fontSize: 11 }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
            labelFormatter={(value) => `${label(String(value))}${value === partialDay ? " (today, so far)" : ""}`}
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
          >
            {days.map((entry) =>
              entry.day === partialDay ? (
                <Cell key={entry.day} fillOpacity={0.35} stroke="currentColor" strokeDasharray="2 2" data-testid="partial-bar" />
              ) : (
                <Cell key={entry.day} />
              ),
            )}
          </Bar>
          {highlight ? <ReferenceArea x1={highlight.first} x2={highlight.last} fill="currentColor" fillOpacity={0.2} stroke="currentColor" strokeOpacity={0.5} /> : null}
        </BarChart>
      </div>
    </div>
  );
}
