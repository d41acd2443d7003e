import { once } from "node:events";
import { openDatabase } from "@/db/client";
import { previewSchedule } from "@/lib/domain/invitations/schedules/run";
import { addSchedule, removeSchedule } from "@/lib/domain/invitations/schedules/store";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { percentile } from "./measure";
import { start } from "./processes";
import { row, type Row } from "./report";
import type { Bench } from "./scenarios";
import { measureApi } from "./search-load";

const BATCH = 10_000;
const TARGET_RUN_SECONDS = 2;
const TARGET_P99_MS = 50;

/**
 * A paced invitation's run: a schedule inviting the next 10,000 verified signups of the big list,
 * run for its next slot by `waitlists scheduler run --at <slot>` (another process, as the server's
 * scheduler thread is), timed inside its transaction; meanwhile /v1 is read as in invite-load.ts.
 * The invited are withdrawn again and the schedule removed, leaving the list as it was.
 */
export async function scheduleLoad(bench: Bench): Promise<Row[]> {
  const scenario = `/v1 while a schedule invites ${BATCH.toLocaleString("en")} of a filtered segment (${bench.scaleLabel} list)`;
  const db = openDatabase(bench.databasePath);
  try {
    const schedule = await addSchedule("cli", bench.bigWaitlistId, { rule: `daily at 09:00 UTC invite ${BATCH} where verified=true` }, db);
    const slot = (await previewSchedule(schedule, Date.now(), db)).nextRunAt!;
    await measureApi(bench, 2); // warm-up
    const quiet = await measureApi(bench, 5);
    const child = start(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "waitlists", "scheduler", "run", "--at", slot, "--json"], { DATABASE_PATH: bench.databasePath });
    let finished = false;
    const exited = once(child.process, "exit").then(([code]) => {
      finished = true;
      return code as number | null;
    });
    const rounds: Awaited<ReturnType<typeof measureApi>>[] = [];
    while (!finished) rounds.push(await measureApi(bench, 1));
    if ((await exited) !== 0) throw new Error(`${scenario}: the scheduler run failed:\n${child.output()}`);
    const done = JSON.parse(child.output().trim().split("\n").at(-1)!) as { scheduled: { scheduleId: number; invited: number; ms: number }[] };
    const run = done.scheduled.find((each) => each.scheduleId === schedule.id);
    if (run?.invited !== BATCH) throw new Error(`${scenario}: ${run?.invited ?? 0} invited`);
    await applyStatusAction("cli", { action: "withdraw", selection: { scope: { waitlistId: bench.bigWaitlistId }, limit: BATCH } }, db);
    await removeSchedule("cli", bench.bigWaitlistId, schedule.id, db);
    const times = rounds.flatMap((each) => each.times);
    bench.log(`  run ${run.ms} ms; quiet p99 ${quiet.p99.toFixed(1)} ms; during: ${times.length} answers, p99 ${percentile(times, 0.99).toFixed(1)} ms`);
    return [
      row(scenario, "the scheduled run (its transaction)", "s", run.ms / 1000, null, { appBelow: TARGET_RUN_SECONDS }),
      row(scenario, "/v1 p99 latency, quiet server", "ms", quiet.p99, null),
      row(scenario, "/v1 p99 latency", "ms", percentile(times, 0.99), null, { appBelow: TARGET_P99_MS }),
      row(scenario, "/v1 longest wait", "ms", Math.max(...times), null),
    ];
  } finally {
    db.$client.close();
  }
}
