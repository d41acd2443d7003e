/**
 * `each` over `items`, one after the other: each call starts once the one before has ended (writes
 * on one connection land in this order; Promise.all would start them all at once).
 */
export async function inTurn<I, T>(items: Iterable<I>, each: (item: I, index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const item of items) results.push(await each(item, results.length));
  return results;
}

/** 0, 1, … count - 1. */
export const upTo = (count: number) => Array.from({ length: count }, (_, index) => index);
