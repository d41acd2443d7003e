import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { processSlot } from "@/lib/core/process-slots";
import { answerOnce, type Answer } from "../idempotency";
import { writeWithoutBlocking } from "../write-without-blocking";
import { toSignupWithStatus } from "./response";
import type { StatusAction } from "./status";
import { applyStatusAction, type StatusSelection } from "./transitions";

// A status action of /v1 or the dashboard as one job: the change, its answer, and (for /v1) the
// answer kept for its Idempotency-Key, in one transaction. The production server runs jobs on a
// thread of its own (lib/server/writers.ts: one per database), so that a write of 100,000 signups never holds up
// other requests; elsewhere (tests, `next dev`) they run here, without waiting inside SQLite for its
// write lock.

export interface StatusWriteJob {
  /** The key of the request or of the dashboard session: the audit log's actor. */
  actor: { keyId: string; keyName: string };
  /** /v1's Idempotency-Key (per key) and the hash of the request it was sent with. */
  idempotency?: { key: string; requestHash: string };
  action: StatusAction;
  selection: StatusSelection;
  /** /v1 answers with the changed signups; the dashboard needs only the counts. */
  withSignups: boolean;
}

export type StatusWriteAnswer = Answer & { replayed: boolean };

/** The job, synchronously (on whichever thread runs it). */
export function runStatusWrite(job: StatusWriteJob, db: AppDatabase = getDb()): StatusWriteAnswer {
  return answerOnce(
    job.actor.keyId,
    job.idempotency?.key,
    job.idempotency?.requestHash ?? "",
    () => {
      const { changed, skipped, signups } = applyStatusAction(job.actor, { action: job.action, selection: job.selection, withSignups: job.withSignups }, db);
      return { status: 200, body: JSON.stringify(job.withSignups ? { changed, skipped, signups: signups.map(toSignupWithStatus) } : { changed, skipped }) };
    },
    db,
  );
}

/** What status actions need of the server: the database's one writer (lib/server/writers.ts provides it at start-up). */
export interface StatusWriter {
  write(job: StatusWriteJob): Promise<StatusWriteAnswer>;
}

export const statusWriter = processSlot<StatusWriter>("status writer");

/** Runs the job on the server's writer when there is one, else here. */
export function writeStatus(job: StatusWriteJob): Promise<StatusWriteAnswer> {
  const writer = statusWriter.get();
  return writer ? writer.write(job) : writeWithoutBlocking(() => runStatusWrite(job));
}
