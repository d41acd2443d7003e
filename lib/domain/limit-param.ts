import { z } from "zod";

/**
 * A `limit` as a URL or a form writes it: a whole number from 1 to `max`, in at most 7 digits (so
 * that no text of digits becomes an unsafe number); anything else is refused with `message`.
 */
export function limitParam(max: number, message: string) {
  return z.string().regex(/^[0-9]{1,7}$/, message).transform(Number).pipe(z.number().int().min(1, message).max(max, message));
}
