// When a failed delivery is tried again: after its n-th failed attempt it waits the n-th wait of the
// schedule (DELIVERY_RETRY_SCHEDULE, by default Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, about
// a day in all), give or take a fifth at random so that the retries of one outage do not all come
// back in the same second; after the last wait's attempt fails too, the delivery has failed.

/** How far a wait may stray from the schedule, as a fraction of it. */
export const RETRY_JITTER = 0.2;

/**
 * The wait in milliseconds before the next attempt of a delivery that has failed `attempts` times,
 * or undefined when it has had every attempt the schedule allows (1 + its length).
 */
export function retryDelay(attempts: number, schedule: readonly number[], random: () => number = Math.random): number | undefined {
  const wait = schedule[attempts - 1];
  if (wait === undefined) return undefined;
  return Math.round(wait * (1 + RETRY_JITTER * (2 * random() - 1)));
}
