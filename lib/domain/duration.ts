import "server-only";
import { z } from "zod";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/core/time";

const UNIT_MS = { m: MINUTE_MS, h: HOUR_MS, d: DAY_MS } as const;
const MAX_MS = 10 * 365 * UNIT_MS.d;

/** A duration such as 90m, 12h or 30d, in milliseconds (at most ten years). */
export const durationSchema = z
  .string()
  .trim()
  .regex(/^[1-9][0-9]{0,6}[mhd]$/, "must be a whole number followed by m, h or d, such as 90m, 12h or 30d")
  .transform((text) => Number(text.slice(0, -1)) * UNIT_MS[text.at(-1) as keyof typeof UNIT_MS])
  .refine((ms) => ms <= MAX_MS, "must be at most 3650d");
