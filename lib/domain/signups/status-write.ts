import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { answerOnce, type Answer } from "../idempotency";
import { writeWithoutBlocking } from "../write-without-blocking";
import { toSignupWithStatus } from "./response";
import type { StatusAction } from "./status";
import { applyStatusAction, type StatusSelection } from "./transitions";

// A /v1 status action as one job: the change, its answer, and the answer kept for its
// Idempotency-Key, in one transaction. The production server runs jobs on a thread of its own
// (lib/server/status-writer.ts), so that a write of 10,000 signups never holds up other requests;
// elsewhere (tests, `next dev`) they run here, without waiting inside SQLite for its write lock.

export interface StatusWriteJob {
  apiKeyId: string;
  apiKeyName: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  action: StatusAction;
  selection: StatusSelection;
}

export type StatusWriteAnswer = Answer & { replayed: boolean };

/** The job, synchronously (on whichever thread runs it). */
export function runStatusWrite(job: StatusWriteJob, db: AppDatabase = getDb()): StatusWriteAnswer {
  return answerOnce(
    job.apiKeyId,
    job.idempotencyKey,
    job.requestHash,
    () => {
      const outcome = applyStatusAction({ keyId: job.apiKeyId, keyName: job.apiKeyName }, { action: job.action, selection: job.selection, withSignups: true }, db);
      return { status: 200, body: JSON.stringify({ changed: outcome.changed, skipped: outcome.skipped, signups: outcome.signups.map(toSignupWithStatus) }) };
    },
    db,
  );
}

/** Where the server installs its writer thread (globalThis: Next.js's module graph and the server's are not one). */
export const STATUS_WRITER_KEY = Symbol.for("waitlist.statusWriter");

type StatusWriter = (job: StatusWriteJob) => Promise<StatusWriteAnswer>;

/** Runs the job on the server's writer thread when there is one, else here. */
export function writeStatus(job: StatusWriteJob): Promise<StatusWriteAnswer> {
  const writer = (globalThis as Record<symbol, StatusWriter | undefined>)[STATUS_WRITER_KEY];
  return writer ? writer(job) : writeWithoutBlocking(() => runStatusWrite(job));
}
