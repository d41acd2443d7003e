import "server-only";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { unsafeCharacterIn } from "@/lib/core/single-line-text";
import { preparedOnce } from "@/lib/sqlite/statements";
import { appendEvent } from "../events";
import { answerOnce } from "../idempotency";
import { MAX_EMAIL_LENGTH } from "../signups/email-address";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import type { SignupStatus } from "../signups/status";
import { getWaitlist } from "../waitlists/queries";
import { writeWithoutBlocking } from "../write-without-blocking";
import { joinLimitHit } from "./limits";
import { signupPosition } from "./position";
import { referralCodeOf, signupWithReferralCode, unusedReferralCode } from "./referral-code";
import { joinSettingsOf, type JoinField } from "./settings";

// Joining a waitlist (the hosted page /join/{id} and POST /v1/waitlist/{id}/signup): one IMMEDIATE
// transaction checks the list is open, finds the address (any case) or inserts the signup with its
// referral code and referrer, and appends `signup.created`, so a signup exists exactly when its event
// does and two joins of one address never make two signups. The insert triggers (migration 0003)
// keep the counts, the search index and the input pairs, as for any single insert.

/** The longest answer to a join form's field, on the page (its maxLength) and in the API alike. */
export const MAX_JOIN_INPUT_VALUE = 1000;
const emailSchema = z.email().max(MAX_EMAIL_LENGTH);

/** A signup as a join answers it: the /v1 signup's four fields plus its id, status, place in line and referral code. */
export interface JoinedSignup {
  id: number;
  email: string;
  verified: boolean;
  referral: boolean;
  custom_inputs: { label: string; value: string }[];
  status: SignupStatus;
  /** Its place in line (1 is next); null once it is no longer waiting. */
  position: number | null;
  referral_code: string;
}

export type JoinOutcome = { created: true; signup: JoinedSignup } | { created: false; signup: JoinedSignup };

export type JoinRefusal = "not_found" | "closed" | "invalid_email" | "invalid_inputs" | "rate_limited";

/** Why a join was refused; its message may be shown to the person joining (it names nothing of other signups). */
export class JoinRefused extends Error {
  constructor(
    readonly reason: JoinRefusal,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "JoinRefused";
  }
}

export interface JoinInput {
  waitlistId: string;
  email: string;
  customInputs: { label: string; value: string }[];
  referralCode?: string;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.join", () => ({
    existing: db.$client.prepare<[string, string], { id: number }>("SELECT id FROM signups WHERE waitlist_id = ? AND lower(email) = lower(?)"),
    insert: db.$client.prepare<[string, string, number, string, number, string, number | null]>(
      "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, referral_code, referred_by) VALUES (?, ?, 0, ?, ?, ?, 'waiting', ?, ?)",
    ),
  }));
}

/**
 * The answers matched to the form's fields, in the form's order: each label names a field (any
 * case), a required field has a non-empty answer, a choice is one of its options, every answer is
 * safe single-line text (lib/core/single-line-text.ts). An empty optional answer is left out.
 */
export function matchInputs(fields: readonly JoinField[], inputs: readonly { label: string; value: string }[]): { label: string; value: string }[] {
  const given = new Map<string, string>();
  for (const input of inputs) {
    const field = fields.find((each) => each.label.toLowerCase() === input.label.trim().toLowerCase());
    if (!field) throw new JoinRefused("invalid_inputs", fields.length === 0 ? "This form has no fields: send no custom inputs." : `The form has no field "${input.label.slice(0, 100)}" (its fields: ${fields.map((each) => each.label).join(", ")}).`);
    if (given.has(field.label)) throw new JoinRefused("invalid_inputs", `The field "${field.label}" is answered twice.`);
    const unsafe = unsafeCharacterIn(input.value);
    if (unsafe) throw new JoinRefused("invalid_inputs", `The answer to "${field.label}" contains ${unsafe}: answers are one line of plain text.`);
    given.set(field.label, input.value.trim());
  }
  const matched: { label: string; value: string }[] = [];
  for (const field of fields) {
    const value = given.get(field.label) ?? "";
    if (value === "") {
      if (field.required) throw new JoinRefused("invalid_inputs", `The field "${field.label}" is required.`);
      continue;
    }
    if (value.length > MAX_JOIN_INPUT_VALUE) throw new JoinRefused("invalid_inputs", `The answer to "${field.label}" is longer than ${MAX_JOIN_INPUT_VALUE} characters.`);
    if (field.type === "choice" && !field.options!.includes(value)) throw new JoinRefused("invalid_inputs", `"${field.label}" must be one of: ${field.options!.join(", ")}.`);
    matched.push({ label: field.label, value });
  }
  return matched;
}

/** A stored custom input as a label and a value (the join writes these; an import may have written other shapes). */
function asPair(input: Record<string, unknown>): { label: string; value: string } {
  const text = (value: unknown) => (typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value));
  return { label: text(input.label), value: text(input.value) };
}

function joined(row: SignupRow, waitlistId: string, db: AppDatabase): JoinedSignup {
  return {
    id: row.id,
    email: row.email,
    verified: row.verified,
    referral: row.referral,
    custom_inputs: row.customInputs.map(asPair),
    status: row.status,
    position: signupPosition(waitlistId, row.id, db),
    referral_code: referralCodeOf(row.id, db),
  };
}

/** A signup of a waitlist as a join answers it, or undefined (the join page's "you're number N" page, reached by its signed link). */
export function joinedSignup(waitlistId: string, signupId: number, db: AppDatabase = getDb()): JoinedSignup | undefined {
  const row = getSignup(waitlistId, signupId, db);
  return row && joined(row, waitlistId, db);
}

/** The join itself, in its transaction, without counting it against the limits (countJoinAttempt does). */
export function joinNow(input: JoinInput, db: AppDatabase = getDb()): JoinOutcome {
  return db.$client
    .transaction((): JoinOutcome => {
      const waitlist = getWaitlist(input.waitlistId, db);
      if (!waitlist) throw new JoinRefused("not_found", "This waitlist does not exist.");
      const settings = joinSettingsOf(waitlist.id, db);
      if (settings.joining !== "open") throw new JoinRefused("closed", `${waitlist.name} is not taking signups right now.`);
      const unsafe = unsafeCharacterIn(input.email);
      const email = input.email.trim();
      if (unsafe) throw new JoinRefused("invalid_email", `The email address contains ${unsafe}.`);
      if (!emailSchema.safeParse(email).success) throw new JoinRefused("invalid_email", "That is not a valid email address.");
      const customInputs = matchInputs(settings.fields, input.customInputs);
      const prepared = statements(db);
      const existing = prepared.existing.get(waitlist.id, email);
      if (existing) return { created: false, signup: joined(getSignup(waitlist.id, existing.id, db)!, waitlist.id, db) };
      const referrer = input.referralCode === undefined ? undefined : signupWithReferralCode(waitlist.id, input.referralCode, db);
      const at = Date.now();
      const { lastInsertRowid } = prepared.insert.run(waitlist.id, email, referrer === undefined ? 0 : 1, JSON.stringify(customInputs), at, unusedReferralCode(db), referrer ?? null);
      const id = Number(lastInsertRowid);
      appendEvent({ type: "signup.created", waitlistId: waitlist.id, signupId: id, payload: {} }, db, at);
      return { created: true, signup: joined(getSignup(waitlist.id, id, db)!, waitlist.id, db) };
    })
    .immediate();
}

/** Counts a join attempt against the per-address and per-waitlist limits: throws JoinRefused `rate_limited` past them. */
export function countJoinAttempt(input: Pick<JoinInput, "waitlistId" | "email">): void {
  const limited = joinLimitHit(input.waitlistId.toLowerCase(), input.email);
  if (limited) {
    const message = limited.limit === "address" ? "Too many attempts with this address: try again later." : "Too many people are joining this waitlist right now: try again in a moment.";
    throw new JoinRefused("rate_limited", message, limited.retryAfterSeconds);
  }
}

/**
 * Puts a person on a waitlist: `created: true` with the new signup, or `created: false` with the
 * signup the address (any case) already has, changing nothing. A referral code of another signup of
 * this waitlist sets `referral` and `referred_by`; any other code is ignored. Throws JoinRefused.
 */
export function joinWaitlist(input: JoinInput, db: AppDatabase = getDb()): JoinOutcome {
  countJoinAttempt(input);
  return joinNow(input, db);
}

/** A signup as POST /v1/waitlist/{id}/signup answers it (./request.ts has its schema): the four fields, then the rest. */
export function toJoinedSignupResponse(signup: JoinedSignup) {
  const { id, email, verified, referral, custom_inputs, status, position, referral_code } = signup;
  return { email, verified, referral, custom_inputs, id: signupPublicId(id), status, position, referral_code };
}

/** A join for the server's join thread: the input and, from /v1, its Idempotency-Key. */
export interface JoinJob {
  input: JoinInput;
  idempotency?: { apiKeyId: string; key: string; requestHash: string };
}

export type JoinAnswer = { replayed: true; status: number; body: string } | { replayed: false; outcome: JoinOutcome };
type JoinJobResult = JoinAnswer | { refused: { reason: JoinRefusal; message: string; retryAfterSeconds?: number } };

/** The job, synchronously (on whichever thread runs it); a refusal comes back as data, to cross threads whole. */
export function runJoinJob(job: JoinJob, db: AppDatabase = getDb()): JoinJobResult {
  try {
    let outcome: JoinOutcome | undefined;
    const { idempotency } = job;
    const answer = answerOnce(
      idempotency?.apiKeyId ?? "",
      idempotency?.key,
      idempotency?.requestHash ?? "",
      () => {
        outcome = joinNow(job.input, db);
        return { status: outcome.created ? 201 : 200, body: JSON.stringify(toJoinedSignupResponse(outcome.signup)) };
      },
      db,
    );
    return answer.replayed ? { replayed: true, status: answer.status, body: answer.body } : { replayed: false, outcome: outcome! };
  } catch (error) {
    if (error instanceof JoinRefused) return { refused: { reason: error.reason, message: error.message, retryAfterSeconds: error.retryAfterSeconds } };
    throw error;
  }
}

/**
 * Several jobs in one transaction (the join thread's group commit), each in a savepoint of its own:
 * a job that fails undoes only itself and gives its error. When the commit itself fails, every job
 * gives that error (none was stored).
 */
export function runJoinJobs(jobs: readonly JoinJob[], db: AppDatabase = getDb()): ({ result: JoinJobResult } | { error: unknown })[] {
  const outcomes: ({ result: JoinJobResult } | { error: unknown })[] = [];
  try {
    db.$client
      .transaction(() => {
        for (const job of jobs) {
          try {
            outcomes.push({ result: runJoinJob(job, db) });
          } catch (error) {
            outcomes.push({ error });
          }
        }
      })
      .immediate();
  } catch (error) {
    return jobs.map(() => ({ error }));
  }
  return outcomes;
}

/**
 * SQLite's page cache of the join thread's connection, in KiB (the default is 2 MB). Each join touches
 * pages all over a large list's indexes (the unique address index, the search index's trigrams): with
 * the default cache most of them are read again from the file for every join.
 */
const JOIN_CACHE_KIB = 64 * 1024;

/** Readies the connection of a thread that runs only joins (lib/server/join-worker.ts). */
export function prepareJoinConnection(db: AppDatabase = getDb()): void {
  db.$client.pragma(`cache_size = -${JOIN_CACHE_KIB}`);
}

/** Where the server installs its join thread (globalThis: Next.js's module graph and the server's are not one). */
export const JOIN_WRITER_KEY = Symbol.for("waitlist.joinWriter");

type JoinWriter = (job: JoinJob) => Promise<JoinJobResult>;

/**
 * A join on the server (the join page and /v1): counted against the limits here, then run on the
 * server's join thread, which may wait inside SQLite for the write lock without holding up requests
 * (lib/server/join-writer.ts); elsewhere (tests, `next dev`) here, retried between turns of the event
 * loop while another connection holds the lock. Throws JoinRefused.
 */
export async function submitJoin(job: JoinJob, db: AppDatabase = getDb()): Promise<JoinAnswer> {
  countJoinAttempt(job.input);
  const writer = (globalThis as Record<symbol, JoinWriter | undefined>)[JOIN_WRITER_KEY];
  const result = writer ? await writer(job) : await writeWithoutBlocking(() => runJoinJob(job, db), db);
  if ("refused" in result) throw new JoinRefused(result.refused.reason, result.refused.message, result.refused.retryAfterSeconds);
  return result;
}

/** joinWaitlist for the server (the join page): see submitJoin. */
export async function joinWaitlistWithoutBlocking(input: JoinInput, db: AppDatabase = getDb()): Promise<JoinOutcome> {
  const answer = await submitJoin({ input }, db);
  if (answer.replayed) throw new Error("a join without an Idempotency-Key was replayed");
  return answer.outcome;
}
