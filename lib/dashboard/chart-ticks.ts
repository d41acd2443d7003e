/**
 * The y-axis ticks of a chart of counts: 0 up to the first tick at or above `max`, evenly spaced by
 * a whole step of 1, 2 or 5 times a power of ten, about `target` steps in all (0/1,000/2,000/3,000/4,000
 * for 3,400). Recharts' own ticks for a domain of [0, max] may skip one (0/850/1,700/3,400).
 */
export function niceTicks(max: number, target = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / target;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, index) => index * step);
}
