import { percentile } from "./measure";
import { measureApi } from "./search-load";
import { row, type Row } from "./report";
import type { Bench } from "./scenarios";

const TARGET_P99_MS = 50;
const CALLS = 10;
const PER_CALL = 10_000;

async function post(bench: Bench, action: string, query: string): Promise<number> {
  const response = await fetch(`${bench.app.origin}/v1/waitlist/${bench.bigWaitlistId}/signup/${action}?${query}`, { method: "POST", headers: bench.adminApiHeaders });
  const body = (await response.json()) as { changed?: number; detail?: string };
  if (response.status !== 200) throw new Error(`POST ${action}: ${response.status} ${body.detail}`);
  return body.changed!;
}

/**
 * `/v1` latency while a backend invites 100,000 signups of the big list through /v1 (ten calls of
 * 10,000, the most one call takes, one after the other), then withdraws them again. First the same
 * /v1 client on a quiet server. The writes run on the server's status writer thread (lib/server/writers.ts).
 */
export async function inviteLoad(bench: Bench): Promise<Row[]> {
  const scenario = `/v1 while /v1 invites ${(CALLS * PER_CALL).toLocaleString("en")} signups (${bench.scaleLabel} list)`;
  await measureApi(bench, 2); // warm-up
  const quiet = await measureApi(bench, 5);
  let finished = false;
  const started = performance.now();
  const writes = (async () => {
    let changed = 0;
    for (let call = 0; call < CALLS; call++) changed += await post(bench, "invite", `verified=true&limit=${PER_CALL}`);
    const invited = performance.now() - started;
    for (let call = 0; call < CALLS; call++) await post(bench, "withdraw", `limit=${PER_CALL}`);
    finished = true;
    return { changed, invitedMs: invited };
  })();
  const rounds: Awaited<ReturnType<typeof measureApi>>[] = [];
  while (!finished) rounds.push(await measureApi(bench, 1));
  const { changed, invitedMs } = await writes;
  if (changed !== CALLS * PER_CALL) throw new Error(`${scenario}: ${changed} invited`);
  const times = rounds.flatMap((each) => each.times);
  const at = (share: number) => percentile(times, share);
  bench.log(`  quiet p99 ${quiet.p99.toFixed(1)} ms; during: ${times.length} answers, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms; invited in ${(invitedMs / 1000).toFixed(1)} s`);
  return [
    row(scenario, "/v1 p99 latency, quiet server", "ms", quiet.p99, null),
    row(scenario, "/v1 p99 latency", "ms", at(0.99), null, { appBelow: TARGET_P99_MS }),
    row(scenario, "/v1 longest wait", "ms", Math.max(...times), null),
    row(scenario, `${CALLS} invite calls of ${PER_CALL.toLocaleString("en")}`, "s", invitedMs / 1000, null),
  ];
}
