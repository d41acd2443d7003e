// Lengths of time in milliseconds. A day is also the unit of signup_counts (`created_at / DAY_MS`,
// migration 0002), so UTC days start at multiples of DAY_MS.
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
