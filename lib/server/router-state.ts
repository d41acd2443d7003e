import { z } from "zod";

// The Next-Router-State-Tree header, checked as Next.js checks it before rendering a page
// (parseAndValidateFlightRouterState in next/dist/server/app-render, which throws, hence a 500, on a
// malformed one): at most 40,000 characters, percent-decoded, JSON, the FlightRouterState tuple of
// next/dist/server/app-render/types.js. tests/e2e/server/router-state.spec.ts holds this to what Next.js's
// own `next start` answers, so a Next.js upgrade that changes the format fails there.

const MAX_LENGTH = 20 * 2000;
/**
 * Next.js recurses over the state and fails (a stack overflow) somewhere past 1,400 nested
 * segments; real states nest a few levels. This many levels of JSON arrays and objects (two per
 * segment) are accepted, so no state that gets past this check can overflow Next's.
 */
const MAX_JSON_DEPTH = 200;

const DYNAMIC_PARAM_TYPES = ["c", "ci(..)(..)", "ci(.)", "ci(..)", "ci(...)", "oc", "d", "di(..)(..)", "di(.)", "di(..)", "di(...)"] as const;

// A static segment, or a dynamic one: [param name, cache key, param type, static siblings].
const segmentSchema = z.union([z.string(), z.tuple([z.string(), z.string(), z.enum(DYNAMIC_PARAM_TYPES), z.array(z.string()).nullable()])]);

const routerStateSchema: z.ZodType = z.tuple([
  segmentSchema,
  // The parallel routes. Next's (superstruct) record() takes any object, an array too, and checks every
  // own value, "__proto__" included, which z.record() would skip.
  z.custom((value) => typeof value === "object" && value !== null && Object.values(value).every((child) => routerStateSchema.safeParse(child).success)),
  z.tuple([z.string(), z.string()]).nullable().optional(),
  z.enum(["refetch", "inside-shared-layout", "metadata-only"]).nullable().optional(),
  z.number().nullable().optional(),
  z.string().optional(),
]);

function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  return levels === 0 || Object.values(value).some((child) => nestsDeeperThan(child, levels - 1));
}

/** Whether Next.js can read the header (absent counts as readable). */
export function isValidRouterState(header: string | string[] | undefined): boolean {
  if (header === undefined) return true;
  if (Array.isArray(header) || header.length > MAX_LENGTH) return false;
  let state: unknown;
  try {
    state = JSON.parse(decodeURIComponent(header));
  } catch {
    return false;
  }
  return !nestsDeeperThan(state, MAX_JSON_DEPTH) && routerStateSchema.safeParse(state).success;
}
