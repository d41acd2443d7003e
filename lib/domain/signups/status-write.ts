import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { processSlot } from "@/lib/core/process-slots";
import { answerOnce, type AnswerRecorder, type RecordedOutcome } from "../idempotency";
import { writeWithoutBlocking } from "../write-without-blocking";
import { toSignupWithStatus, type SignupWithStatus } from "./response";
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
  action: StatusAction;
  selection: StatusSelection;
  /**
   * Set when the caller answers with its transport's recorded answer (/v1: the changed signups, built
   * where the write runs, off the serving thread), kept for the Idempotency-Key (per key) and the
   * hash of the request it was sent with, if any. Unset: the caller needs only the counts (the dashboard).
   */
  recorded?: { idempotency?: { key: string; requestHash: string } };
}

/** How many signups an action changed and how many it skipped (not in a status it applies to). */
export interface StatusCounts {
  changed: number;
  skipped: number;
}

/** What a recorded action's answer is made of: the counts and the changed signups. */
export interface StatusWriteResult extends StatusCounts {
  signups: SignupWithStatus[];
}

export type StatusWriteAnswer = { counts: StatusCounts } | RecordedOutcome;

/** The job (on whichever thread runs it): a recorded job's answer by `record`, else the counts. */
export async function runStatusWrite(job: StatusWriteJob, record: AnswerRecorder<StatusWriteResult>, db: AppDatabase = getDb()): Promise<StatusWriteAnswer> {
  const change = { action: job.action, selection: job.selection };
  if (!job.recorded) {
    const { changed, skipped } = await applyStatusAction(job.actor, { ...change, withSignups: false }, db);
    return { counts: { changed, skipped } };
  }
  const { idempotency } = job.recorded;
  return await answerOnce(
    idempotency && { apiKeyId: job.actor.keyId, ...idempotency },
    async (): Promise<StatusWriteResult> => {
      const { changed, skipped, signups } = await applyStatusAction(job.actor, { ...change, withSignups: true }, db);
      return { changed, skipped, signups: signups.map(toSignupWithStatus) };
    },
    record,
    db,
  );
}

/** What status actions need of the server: the database's one writer (lib/server/writers.ts provides it at start-up). */
export interface StatusWriter {
  write(job: StatusWriteJob): Promise<StatusWriteAnswer>;
}

export const statusWriter = processSlot<StatusWriter>("status writer");

/**
 * Runs the job on the server's writer when there is one, else here. The writer thread records with
 * /v1's recorder (lib/server/status-worker.ts), /v1 being the one transport that records answers.
 */
export function writeStatus(job: StatusWriteJob & { recorded?: undefined }): Promise<{ counts: StatusCounts }>;
export function writeStatus(job: StatusWriteJob, record: AnswerRecorder<StatusWriteResult>): Promise<RecordedOutcome>;
export async function writeStatus(job: StatusWriteJob, record: AnswerRecorder<StatusWriteResult> = unrecorded): Promise<StatusWriteAnswer> {
  const writer = statusWriter.get();
  return writer ? await writer.write(job) : await writeWithoutBlocking(() => runStatusWrite(job, record));
}

/** The recorder of a job that records nothing (the dashboard's): never called. */
function unrecorded(): never {
  throw new Error("a recorded status write needs its transport's recorder");
}
