/**
 * Runs the work it is given with at most `limit` of them under way; the others wait, in the order they
 * came, and each that ends hands its place to the next.
 */
export function atMostAtOnce(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
