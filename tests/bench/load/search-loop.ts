// The dashboard side of the benchmark's "/v1 under dashboard searches" scenario, in a process of its
// own so that its work never delays the /v1 latency measurement: one loop per view (a JSON array of
// dashboard URL queries), each requesting its view again and again with a fresh search fragment,
// so that every request counts its matches anew. On SIGTERM prints one JSON line: requests finished,
// their statuses, the median and p90 of their times in ms, and the seconds the loops ran.
//   npx tsx tests/bench/load/search-loop.ts <origin> <cookie header> <waitlist id> '<views JSON>'
import { SIGNUP_FILTERS } from "@/lib/domain/signups/filter";
import { median } from "../measure";
import { searchFragment } from "../people";
import { seededRandom } from "../random";

const [origin = "", cookie = "", waitlistId = "", viewsJson = "[]"] = process.argv.slice(2);
if (!origin || !cookie || !waitlistId) throw new Error("usage: search-loop.ts <origin> <cookie> <waitlist id> <views JSON>");
const views = JSON.parse(viewsJson) as string[];

const statuses: Record<string, number> = {};
const times: number[] = [];
const startedAt = performance.now();

async function loop(view: string, seed: number) {
  const random = seededRandom(seed);
  for (;;) {
    const query = new URLSearchParams(view);
    query.set(SIGNUP_FILTERS.emailContains.name, searchFragment(random));
    const started = performance.now();
    let outcome: string;
    try {
      const response = await fetch(`${origin}/waitlists/${waitlistId}?${query}`, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(120_000) });
      await response.arrayBuffer(); // every byte, as a browser showing the page reads it
      outcome = String(response.status);
      times.push(performance.now() - started);
    } catch (error) {
      outcome = error instanceof Error && error.name === "TimeoutError" ? "timeout" : "error";
    }
    statuses[outcome] = (statuses[outcome] ?? 0) + 1;
  }
}

process.once("SIGTERM", () => {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(JSON.stringify({ requests: times.length, statuses, medianMs: times.length ? median(times) : null, p90Ms: sorted[Math.floor(sorted.length * 0.9)] ?? null, seconds: (performance.now() - startedAt) / 1000 }));
  process.exit(0);
});
views.forEach((view, index) => void loop(view, 1_000 + index));
