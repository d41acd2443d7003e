import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { processSlot } from "@/lib/core/process-slots";
import { writeTransaction } from "@/lib/store/transaction";
import { storeAnswer, storedAnswer, type AnswerRecorder, type IdempotencyScope, type RecordedOutcome } from "../idempotency";
import { readCounters, type CounterBatch } from "../limits/counter-batch";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import { emailAlreadyOnList } from "../verification/already-on-list";
import { writeWithoutBlocking } from "../write-without-blocking";
import { burstKey } from "../fraud/burst";
import { joinAll, readJoinBatch, type BatchReads } from "./join-batch";
import { JoinRefused, type JoinedSignup, type JoinFound, type JoinInput, type JoinOutcome, type JoinRefusal, type JoinReply } from "./join-input";
import { hitJoinLimits, joinLimitKeys, type JoinLimitKeys } from "./limits";
import { signupPosition } from "./position";
import { referralCodeOf } from "./referral-code";

// Joining a waitlist (the hosted page /join/{id} and POST /v1/waitlist/{id}/signup): the joins that
// arrive together run as one batch in one write transaction (the server's join writer, group commit).
// Each is counted against the limits first (a refused attempt counts too), an Idempotency-Key already
// answered is answered again, and the rest join set-based (./join-batch.ts): the list is open, the
// address (any case) is found or the signup inserted with its referral code and referrer, and
// `signup.created` appended, so a signup exists exactly when its event does and two joins of one
// address never make two signups. An address already on the list is answered with nothing stored
// about that person, and emailed a link to its own page.

/** A stored custom input as a label and a value (the join writes these; an import may have written other shapes). */
function asPair(input: Record<string, unknown>): { label: string; value: string } {
  const text = (value: unknown) => (typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value));
  return { label: text(input.label), value: text(input.value) };
}

async function joined(row: SignupRow, waitlistId: string, db: AppDatabase): Promise<JoinedSignup> {
  return {
    id: row.id,
    email: row.email,
    verified: row.verified,
    referral: row.referral,
    custom_inputs: row.customInputs.map(asPair),
    status: row.status,
    position: await signupPosition(waitlistId, row.id, db),
    referral_code: await referralCodeOf(row.id, db),
  };
}

/** A signup of a waitlist as a join answers it, or undefined (the join page's "you're number N" page, reached by its signed link). */
export async function joinedSignup(waitlistId: string, signupId: number, db: AppDatabase = getDb()): Promise<JoinedSignup | undefined> {
  const row = await getSignup(waitlistId, signupId, db);
  return row && await joined(row, waitlistId, db);
}

const LIMIT_MESSAGES = {
  address: "Too many attempts with this address: try again later.",
  client: "Too many joins from this network: try again later.",
  waitlist: "Too many people are joining this waitlist right now: try again in a moment.",
} as const;

/** What a batch reads first, all together: its counters (countersOf), and its waitlists, addresses and codes (readJoinBatch). */
async function readBatch(inputs: readonly JoinInput[], at: number, db: AppDatabase): Promise<{ counters: CounterBatch; limitKeys: JoinLimitKeys[]; reads: BatchReads }> {
  const [counted, reads] = await Promise.all([countersOf(inputs, at, db), readJoinBatch(inputs, db)]);
  return { ...counted, reads };
}

/** Every counter the inputs' attempts and new signups may hit, read in one statement. */
async function countersOf(inputs: readonly JoinInput[], at: number, db: AppDatabase): Promise<{ counters: CounterBatch; limitKeys: JoinLimitKeys[] }> {
  const limitKeys: JoinLimitKeys[] = [];
  const keys: string[] = [];
  for (const input of inputs) {
    const limits = await joinLimitKeys(input, db);
    limitKeys.push(limits);
    keys.push(...limits.map(([, key]) => key));
    if (input.clientAddress !== undefined) keys.push(await burstKey(input.waitlistId, input.clientAddress, db));
  }
  return { counters: await readCounters(keys, at, db), limitKeys };
}

/** The attempt counted against the limits: the refusal past them, else undefined. */
function limitRefusal(counters: CounterBatch, keys: JoinLimitKeys): JoinRefused | undefined {
  const limited = hitJoinLimits(counters, keys);
  return limited && new JoinRefused("rate_limited", LIMIT_MESSAGES[limited.limit], limited.retryAfterSeconds);
}

/**
 * Puts a person on a waitlist (tests and tools; the server's joins go through submitJoin, which tells
 * nothing of an existing signup): `created: true` with the new signup, or `created: false` with the
 * signup the address (any case) already has, changing nothing. A referral code of another signup of
 * this waitlist sets `referral` and `referred_by`; any other code is ignored. Throws JoinRefused; the
 * attempt stays counted when it is refused.
 */
export async function joinWaitlist(input: JoinInput, db: AppDatabase = getDb()): Promise<JoinOutcome> {
  const found = await writeTransaction(db, async (): Promise<JoinFound | JoinRefused> => {
    const at = Date.now();
    const { counters, limitKeys, reads } = await readBatch([input], at, db);
    const found = limitRefusal(counters, limitKeys[0]!) ?? (await joinAll([input], counters, reads, at, db))[0]!;
    // What joinAll did not write: a refused join's hits.
    await counters.write();
    return found;
  });
  if (found instanceof JoinRefused) throw found;
  return found.created ? found : { created: false, signup: (await joinedSignup(input.waitlistId.toLowerCase(), found.signupId, db))! };
}

/** The answer of POST /v1/waitlist/{id}/signup for an address already on the list (./request.ts has its schema). */
export function toAlreadyOnListResponse(email: string, emailSent: boolean) {
  return { email, already_on_list: true as const, email_sent: emailSent };
}

/** A signup as POST /v1/waitlist/{id}/signup answers it (./request.ts has its schema): the four fields, then the rest. */
export function toJoinedSignupResponse(signup: JoinedSignup) {
  const { id, email, verified, referral, custom_inputs, status, position, referral_code } = signup;
  return { email, verified, referral, custom_inputs, id: signupPublicId(id), status, position, referral_code };
}

/**
 * A join for the server's join thread: the input; `recorded` when the caller answers with its
 * transport's recorded answer (/v1), kept for the Idempotency-Key if one was sent; and how to email
 * an address already on the list (none: no email).
 */
export interface JoinJob {
  input: JoinInput;
  recorded?: { idempotency?: IdempotencyScope };
  alreadyOnList?: { emailConfigured: boolean; publicUrl: string };
}

type JoinRefusalData = { refused: { reason: JoinRefusal; message: string; retryAfterSeconds?: number } };
/** What a job gives: a recorded job its transport's answer, any other the reply; or the refusal. */
type JoinJobResult = RecordedOutcome | { reply: JoinReply } | JoinRefusalData;
type JoinJobOutcome = { result: JoinJobResult } | { error: unknown };

const refusalData = (refused: JoinRefused): JoinRefusalData => ({ refused: { reason: refused.reason, message: refused.message, retryAfterSeconds: refused.retryAfterSeconds } });

const scopeKey = (scope: IdempotencyScope) => JSON.stringify([scope.apiKeyId, scope.key]);

/** What a join found, as it may be told: an address already on the list is emailed its own page (rate-limited), in this transaction. */
async function replyTo(job: JoinJob, found: JoinFound, at: number, db: AppDatabase): Promise<JoinReply> {
  if (found.created) return found;
  const { alreadyOnList } = job;
  if (alreadyOnList) await emailAlreadyOnList(job.input.waitlistId.toLowerCase(), found.signupId, { ...alreadyOnList, now: at }, db);
  return { created: false, email: job.input.email.trim(), emailSent: alreadyOnList?.emailConfigured ?? false };
}

/**
 * The jobs that are not counted again (counted: the caller counted them on `counters`), in order:
 * those whose Idempotency-Key was answered are answered again; the rest join together and their
 * answers are stored. A job whose key an earlier job of this round uses waits for the next round, so
 * that it finds that job's stored answer, as it would one after the other.
 */
async function runCountedJobs(
  jobs: readonly JoinJob[],
  record: AnswerRecorder<JoinReply>,
  { counters, reads }: { counters: CounterBatch; reads: BatchReads },
  at: number,
  db: AppDatabase,
): Promise<JoinJobOutcome[]> {
  const outcomes: (JoinJobOutcome | undefined)[] = jobs.map(() => undefined);
  const joining: number[] = [];
  const later: number[] = [];
  const keysThisRound = new Set<string>();
  for (const [index, job] of jobs.entries()) {
    const scope = job.recorded?.idempotency;
    if (scope) {
      if (keysThisRound.has(scopeKey(scope))) {
        later.push(index);
        continue;
      }
      keysThisRound.add(scopeKey(scope));
      try {
        const replay = await storedAnswer(scope, db, at);
        if (replay) {
          outcomes[index] = { result: replay };
          continue;
        }
      } catch (error) {
        outcomes[index] = { error };
        continue;
      }
    }
    joining.push(index);
  }
  const found = await joinAll(joining.map((index) => jobs[index]!.input), counters, reads, at, db);
  for (const [position, index] of joining.entries()) {
    const job = jobs[index]!;
    const result = found[position]!;
    if (result instanceof JoinRefused) {
      outcomes[index] = { result: refusalData(result) };
      continue;
    }
    const reply = await replyTo(job, result, at, db);
    if (!job.recorded) {
      outcomes[index] = { result: { reply } };
      continue;
    }
    const answer = record(reply);
    if (job.recorded.idempotency) await storeAnswer(job.recorded.idempotency, answer, db, at);
    outcomes[index] = { result: { replayed: false, answer } };
  }
  if (later.length > 0) (await runCountedJobs(later.map((index) => jobs[index]!), record, { counters, reads }, at, db)).forEach((outcome, position) => (outcomes[later[position]!] = outcome));
  return outcomes.map((outcome) => outcome!);
}

/**
 * Several jobs in one transaction (the join thread's group commit), each counted against the limits
 * first, in order (a refused attempt counts too), then run together: a recorded job's answer by
 * `record`, kept for its Idempotency-Key. A job refused gives its refusal and writes nothing, one
 * whose key was used for another request its error; when the batch's writes fail, every job gives
 * that error and none was stored.
 */
export async function runJoinJobs(jobs: readonly JoinJob[], record: AnswerRecorder<JoinReply>, db: AppDatabase = getDb()): Promise<JoinJobOutcome[]> {
  try {
    return await writeTransaction(db, async () => {
      const at = Date.now();
      const { counters, limitKeys, reads } = await readBatch(jobs.map((job) => job.input), at, db);
      const refusals = limitKeys.map((keys) => limitRefusal(counters, keys));
      const allowed = jobs.flatMap((job, index) => (refusals[index] ? [] : [job]));
      // Its joinAll writes the counters, these refusals' hits too.
      const ran = await runCountedJobs(allowed, record, { counters, reads }, at, db);
      return refusals.map((refused) => (refused ? { result: refusalData(refused) } : ran.shift()!));
    });
  } catch (error) {
    return jobs.map(() => ({ error }));
  }
}

/**
 * The longest a join waits for the server's writer (its turn, then SQLite's write lock, held by an
 * import, a backup, the CLI) before it is refused as busy (SQLITE_BUSY: each transport answers it with one line saying why), nothing written.
 */
export const JOIN_WAIT_MS = 5_000;

/** What joins need of the server: the database's one join writer (lib/server/writers.ts provides it at start-up). */
export interface JoinWriter {
  /** The job, counted against the limits and run; one that waited JOIN_WAIT_MS for the write lock fails as SQLITE_BUSY. */
  write(job: JoinJob): Promise<JoinJobResult>;
}

export const joinWriter = processSlot<JoinWriter>("join writer");

/**
 * A join on the server (the join page and /v1): counted against the limits and run by the server's
 * join writer, which may wait inside SQLite for the write lock (boundedly) without holding up requests
 * (it records with /v1's recorder, /v1 being the one transport that records answers); elsewhere
 * (tests, `next dev`) here, retried between turns of the event loop while another connection holds
 * the lock. Throws JoinRefused.
 */
export async function submitJoin(job: JoinJob & { recorded: NonNullable<JoinJob["recorded"]> }, record: AnswerRecorder<JoinReply>, db?: AppDatabase): Promise<RecordedOutcome>;
export async function submitJoin(job: JoinJob & { recorded?: undefined }, record?: undefined, db?: AppDatabase): Promise<{ reply: JoinReply }>;
export async function submitJoin(job: JoinJob, record: AnswerRecorder<JoinReply> = unrecorded, db: AppDatabase = getDb()): Promise<RecordedOutcome | { reply: JoinReply }> {
  job = { alreadyOnList: { emailConfigured: env().SMTP_URL !== undefined, publicUrl: env().PUBLIC_URL }, ...job };
  const writer = joinWriter.get();
  const result = writer ? await writer.write(job) : await writeWithoutBlocking(async () => resultOf((await runJoinJobs([job], record, db))[0]!), db);
  if ("refused" in result) throw new JoinRefused(result.refused.reason, result.refused.message, result.refused.retryAfterSeconds);
  return result;
}

/** A job's result; its error thrown. */
function resultOf(outcome: JoinJobOutcome): JoinJobResult {
  if ("error" in outcome) throw outcome.error;
  return outcome.result;
}

/** The recorder of a job that records nothing (the join page's): never called. */
function unrecorded(): never {
  throw new Error("a recorded join needs its transport's recorder");
}

/** joinWaitlist for the server (the join page): see submitJoin. */
export async function joinWaitlistWithoutBlocking(input: JoinInput, db: AppDatabase = getDb()): Promise<JoinReply> {
  return (await submitJoin({ input }, undefined, db)).reply;
}
