import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { processSlot } from "@/lib/core/process-slots";
import { unsafeCharacterIn } from "@/lib/core/single-line-text";
import { preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { appendEvent } from "../events";
import { answerOnce, type AnswerRecorder, type IdempotencyScope, type RecordedOutcome } from "../idempotency";
import { MAX_EMAIL_LENGTH } from "../signups/email-address";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import type { SignupStatus } from "../signups/status";
import { emailAlreadyOnList } from "../verification/already-on-list";
import { getWaitlist } from "../waitlists/queries";
import { writeWithoutBlocking } from "../write-without-blocking";
import { isBurst } from "../fraud/burst";
import { isDisposableAddress } from "../fraud/disposable";
import { recordFlags } from "../fraud/flags";
import type { FlagReason } from "../fraud/reasons";
import { joinLimitHit } from "./limits";
import { signupPosition } from "./position";
import { referralCodeOf, signupWithReferralCode, unusedReferralCode } from "./referral-code";
import { recordReferral } from "./referrals";
import { joinSettingsOf, type JoinField } from "./settings";
import type { SignupSource } from "../funnel/source";

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

/** What the join itself finds: a new signup, or only the id of the one the address already has (reading its place would cost time a stranger could measure). */
export type JoinFound = { created: true; signup: JoinedSignup } | { created: false; signupId: number };

/**
 * What a join may tell whoever asked (the page, /v1): a new signup is theirs; of an address the list
 * already had, nothing stored about that person (issue 29): the address as sent, and whether email
 * went to it (a setting of the server, the same for every such address).
 */
export type JoinReply = { created: true; signup: JoinedSignup } | { created: false; email: string; emailSent: boolean };

export type JoinRefusal = "not_found" | "closed" | "invalid_email" | "disposable_email" | "invalid_inputs" | "rate_limited";

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
  /** The client's limiter key (lib/http/client-address.ts): counted against JOINS_PER_CLIENT_PER_HOUR. */
  clientAddress?: string;
  /** Where the person came from (lib/domain/funnel/source.ts), validated by the transport. */
  source?: SignupSource;
}

function existingSignup(db: AppDatabase) {
  return preparedSql<{ id: number }>(db, "joining.join.existing", () => sql`SELECT id FROM signups WHERE waitlist_id = ${sql.placeholder("waitlistId")} AND lower(email) = lower(${sql.placeholder("email")})`);
}

function insertSignup(db: AppDatabase) {
  return preparedSql<{ id: number }>(
    db,
    "joining.join.insert",
    () =>
      sql`INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, referral_code, referred_by, utm_source, utm_medium, utm_campaign, referrer) VALUES (${sql.placeholder("waitlistId")}, ${sql.placeholder("email")}, 0, ${sql.placeholder("referral")}, ${sql.placeholder("customInputs")}, ${sql.placeholder("at")}, 'waiting', ${sql.placeholder("referralCode")}, ${sql.placeholder("referredBy")}, ${sql.placeholder("utmSource")}, ${sql.placeholder("utmMedium")}, ${sql.placeholder("utmCampaign")}, ${sql.placeholder("referrer")}) RETURNING id`,
  );
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

/** The join itself, in its transaction, without counting it against the limits (countJoinAttempt does). */
export async function joinNow(input: JoinInput, db: AppDatabase = getDb()): Promise<JoinFound> {
  return await writeTransaction(db, async (): Promise<JoinFound> => {
      const waitlist = await getWaitlist(input.waitlistId, db);
      if (!waitlist) throw new JoinRefused("not_found", "This waitlist does not exist.");
      const settings = await joinSettingsOf(waitlist.id, db);
      if (settings.joining !== "open") throw new JoinRefused("closed", `${waitlist.name} is not taking signups right now.`);
      const unsafe = unsafeCharacterIn(input.email);
      const email = input.email.trim();
      if (unsafe) throw new JoinRefused("invalid_email", `The email address contains ${unsafe}.`);
      if (!emailSchema.safeParse(email).success) throw new JoinRefused("invalid_email", "That is not a valid email address.");
      const disposable = settings.disposable !== "allow" && isDisposableAddress(email);
      if (disposable && settings.disposable === "refuse") throw new JoinRefused("disposable_email", "This waitlist does not accept addresses from disposable email services: please use an address of your own.");
      const customInputs = matchInputs(settings.fields, input.customInputs);
      const existing = await existingSignup(db).get({ waitlistId: waitlist.id, email });
      if (existing) return { created: false, signupId: existing.id };
      const referrer = input.referralCode === undefined ? undefined : await signupWithReferralCode(waitlist.id, input.referralCode, db);
      const at = Date.now();
      const source = input.source ?? {};
      const { id } = (await insertSignup(db).get({
        waitlistId: waitlist.id,
        email,
        referral: referrer === undefined ? 0 : 1,
        customInputs: JSON.stringify(customInputs),
        at,
        referralCode: await unusedReferralCode(db),
        referredBy: referrer ?? null,
        utmSource: source.utm_source ?? null,
        utmMedium: source.utm_medium ?? null,
        utmCampaign: source.utm_campaign ?? null,
        referrer: source.referrer ?? null,
      }))!;
      // The rules of lib/domain/fraud: a flagged signup waits for review, and so does its referral.
      const flags: FlagReason[] = [...(disposable ? ["disposable" as const] : []), ...(await isBurst(waitlist.id, input.clientAddress, at, db) ? ["burst" as const] : [])];
      await recordFlags(id, waitlist.id, flags, at, db);
      if (referrer !== undefined) await recordReferral({ signupId: id, referrerId: referrer, waitlistId: waitlist.id, email, verifies: settings.verification, held: flags.length > 0 }, at, db);
      await appendEvent({ type: "signup.created", waitlistId: waitlist.id, signupId: id, payload: {} }, db, at);
      return { created: true, signup: await joined((await getSignup(waitlist.id, id, db))!, waitlist.id, db) };
  });
}

const LIMIT_MESSAGES = {
  address: "Too many attempts with this address: try again later.",
  client: "Too many joins from this network: try again later.",
  waitlist: "Too many people are joining this waitlist right now: try again in a moment.",
} as const;

/**
 * Counts a join attempt against the limits (./limits.ts) in the caller's transaction, outside the
 * join's own savepoint, so a refused join is still counted: the refusal past them, else undefined.
 */
async function countJoinAttempt(input: JoinInput, db: AppDatabase): Promise<JoinRefused | undefined> {
  const limited = await joinLimitHit(input, Date.now(), db);
  return limited && new JoinRefused("rate_limited", LIMIT_MESSAGES[limited.limit], limited.retryAfterSeconds);
}

/**
 * Puts a person on a waitlist (tests and tools; the server's joins go through submitJoin, which tells
 * nothing of an existing signup): `created: true` with the new signup, or `created: false` with the
 * signup the address (any case) already has, changing nothing. A referral code of another signup of
 * this waitlist sets `referral` and `referred_by`; any other code is ignored. Throws JoinRefused.
 */
export async function joinWaitlist(input: JoinInput, db: AppDatabase = getDb()): Promise<JoinOutcome> {
  // The attempt stays counted when the join is refused (joinNow's own savepoint is undone, not this transaction).
  const found = await writeTransaction(db, async (): Promise<JoinFound | JoinRefused> => {
    const limited = await countJoinAttempt(input, db);
    if (limited) return limited;
    try {
      return await joinNow(input, db);
    } catch (error) {
      if (error instanceof JoinRefused) return error;
      throw error;
    }
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

const refusalData = (refused: JoinRefused): JoinRefusalData => ({ refused: { reason: refused.reason, message: refused.message, retryAfterSeconds: refused.retryAfterSeconds } });

/** The join of a job and what it may tell (JoinReply); an address already on the list is emailed its own page (rate-limited), in this transaction. */
async function replyTo(job: JoinJob, db: AppDatabase): Promise<JoinReply> {
  const joined = await joinNow(job.input, db);
  if (joined.created) return joined;
  const { alreadyOnList } = job;
  if (alreadyOnList) await emailAlreadyOnList(job.input.waitlistId.toLowerCase(), joined.signupId, alreadyOnList, db);
  return { created: false, email: job.input.email.trim(), emailSent: alreadyOnList?.emailConfigured ?? false };
}

/** The job (on whichever thread runs it), a recorded one's answer by `record`; a refusal comes back as data, to cross threads whole. */
export async function runJoinJob(job: JoinJob, record: AnswerRecorder<JoinReply>, db: AppDatabase = getDb()): Promise<JoinJobResult> {
  try {
    if (!job.recorded) return { reply: await replyTo(job, db) };
    return await answerOnce(job.recorded.idempotency, () => replyTo(job, db), record, db);
  } catch (error) {
    if (error instanceof JoinRefused) return refusalData(error);
    throw error;
  }
}

/** The job counted against the limits first (inside the caller's transaction), then run unless refused. */
async function runCountedJoinJob(job: JoinJob, record: AnswerRecorder<JoinReply>, db: AppDatabase): Promise<JoinJobResult> {
  const limited = await countJoinAttempt(job.input, db);
  return limited ? refusalData(limited) : await runJoinJob(job, record, db);
}

/**
 * Several jobs in one transaction (the join thread's group commit), each counted against the limits
 * and then run in a savepoint of its own: a job that fails undoes only itself (not its count) and
 * gives its error. When the commit itself fails, every job gives that error (none was stored).
 */
export async function runJoinJobs(jobs: readonly JoinJob[], record: AnswerRecorder<JoinReply>, db: AppDatabase = getDb()): Promise<({ result: JoinJobResult } | { error: unknown })[]> {
  const outcomes: ({ result: JoinJobResult } | { error: unknown })[] = [];
  try {
    await writeTransaction(db, async () => {
      for (const job of jobs) {
        try {
          outcomes.push({ result: await runCountedJoinJob(job, record, db) });
        } catch (error) {
          outcomes.push({ error });
        }
      }
    });
  } catch (error) {
    return jobs.map(() => ({ error }));
  }
  return outcomes;
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
  const result = writer ? await writer.write(job) : await writeWithoutBlocking(async () => await writeTransaction(db, async () => await runCountedJoinJob(job, record, db)), db);
  if ("refused" in result) throw new JoinRefused(result.refused.reason, result.refused.message, result.refused.retryAfterSeconds);
  return result;
}

/** The recorder of a job that records nothing (the join page's): never called. */
function unrecorded(): never {
  throw new Error("a recorded join needs its transport's recorder");
}

/** joinWaitlist for the server (the join page): see submitJoin. */
export async function joinWaitlistWithoutBlocking(input: JoinInput, db: AppDatabase = getDb()): Promise<JoinReply> {
  return (await submitJoin({ input }, undefined, db)).reply;
}
