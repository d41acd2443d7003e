import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** A target from the issue: on the app ÷ baseline ratio, or on the app's own figure. */
export type Target = { ratioAtLeast: number } | { ratioAtMost: number } | { appBelow: number } | { appAtLeast: number };

export interface Row {
  scenario: string;
  metric: string;
  unit: string;
  app: number;
  /** null where no baseline applies. */
  baseline: number | null;
  /** app ÷ baseline, whatever the metric (for times and memory, above 1 means the app is slower or bigger). */
  ratio: number | null;
  target?: Target;
  met?: boolean;
}

export function row(scenario: string, metric: string, unit: string, app: number, baseline: number | null, target?: Target): Row {
  const ratio = baseline ? app / baseline : null;
  let met: boolean | undefined;
  if (target && "ratioAtLeast" in target) met = ratio !== null && ratio >= target.ratioAtLeast;
  if (target && "ratioAtMost" in target) met = ratio !== null && ratio <= target.ratioAtMost;
  if (target && "appBelow" in target) met = app < target.appBelow;
  if (target && "appAtLeast" in target) met = app >= target.appAtLeast;
  return { scenario, metric, unit, app, baseline, ratio, ...(target && { target, met }) };
}

function describeTarget(target: Target | undefined): string {
  if (!target) return "";
  if ("ratioAtLeast" in target) return `ratio ≥ ${target.ratioAtLeast}`;
  if ("ratioAtMost" in target) return `ratio ≤ ${target.ratioAtMost}`;
  if ("appBelow" in target) return `app < ${target.appBelow}`;
  return `app ≥ ${target.appAtLeast.toLocaleString("en")}`;
}

const number = (value: number | null) =>
  value === null ? "–" : value >= 1000 ? Math.round(value).toLocaleString("en") : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

/** The table as aligned plain text (also valid Markdown). */
export function formatTable(rows: Row[]): string {
  const header = ["scenario", "metric", "app", "baseline", "ratio", "target", "met"];
  const cells = rows.map((each) => [
    each.scenario,
    `${each.metric} (${each.unit})`,
    number(each.app),
    number(each.baseline),
    each.ratio === null ? "–" : each.ratio.toFixed(2),
    describeTarget(each.target),
    each.met === undefined ? "" : each.met ? "yes" : "NO",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...cells.map(line)].join("\n");
}

export function writeJson(path: string, report: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
