// Dates are shown in UTC, like the API and the CSV export, so server and browser render the same text.
const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dateOnly = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const integer = new Intl.NumberFormat("en-US");

export function formatDateTime(date: Date): string {
  return dateTime.format(date);
}

export function formatDate(date: Date): string {
  return dateOnly.format(date);
}

export function formatCount(count: number): string {
  return integer.format(count);
}

/** "42.5%" of a total, or "—" when there is nothing to divide by. */
export function formatPercent(part: number, total: number): string {
  if (total === 0) return "—";
  const percent = (part / total) * 100;
  return `${percent === 100 || percent === 0 ? percent.toFixed(0) : percent.toFixed(1)}%`;
}
