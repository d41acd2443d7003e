import "server-only";
import { sql } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";
import type { Waitlist } from "@/db/schema";
import { batchSql, preparedSql } from "@/lib/store/statements";
import { appendEventPerSignup } from "../events";
import { burstKey, hitBurst } from "../fraud/burst";
import { recordFlags } from "../fraud/flags";
import type { FlagReason } from "../fraud/reasons";
import type { CounterBatch } from "../limits/counter-batch";
import { getWaitlist } from "../waitlists/queries";
import { checkJoin, joinAddress, JoinRefused, type CheckedJoin, type JoinFound, type JoinInput } from "./join-input";
import { placesOfNewSignups } from "./position";
import { signupWithReferralCode, unusedReferralCodes } from "./referral-code";
import { recordReferral } from "./referrals";
import { joinSettingsOf, type JoinSettings } from "./settings";

// The joins of a batch, set-based (the join thread's group commit): each join is checked, then the
// batch finds the addresses its waitlists have already in one statement, inserts its new signups in
// one, appends their `signup.created` events in one and counts one place per waitlist (the others
// follow it), where a join on its own made some twenty statements. On SQLite a statement costs microseconds; on PostgreSQL
// each is a round trip, and this is what lets one writer take over a thousand joins a second. What
// only some joins need (a referral, a flag) is written per join. The insert triggers keep the counts,
// the search index and the input pairs, as for any insert. A signup exists exactly when its event
// does, and two joins of one address (any case) never make two signups: the second finds the first.

/** A join the batch will make: its checked input, its waitlist, its referrer and its flags. */
interface NewJoin {
  input: JoinInput;
  checked: CheckedJoin;
  waitlistId: string;
  referrerId?: number;
  verifies: boolean;
  flags: FlagReason[];
  code?: string;
  id?: number;
}

/** One waitlist of the batch: its row and its join settings (undefined: no such waitlist). */
type WaitlistOfBatch = { waitlist: Waitlist; settings: JoinSettings } | undefined;

/**
 * What a batch reads before it joins anyone, all sent together: its waitlists (by id, lowercase) and
 * their settings, the signups they have already with the batch's addresses (by addressKey; the batch
 * adds its own as it inserts them, for a later round of joinAll), and an unused referral code for
 * each input (the batch takes them in turn).
 */
export interface BatchReads {
  waitlists: ReadonlyMap<string, WaitlistOfBatch>;
  existing: Map<string, number>;
  codes: string[];
}

const addressKey = (waitlistId: string, address: string) => `${waitlistId} ${address.toLowerCase()}`;

/** The reads of a batch of joins (BatchReads): the addresses of all its inputs are looked up, those of joins that will be refused too. */
export async function readJoinBatch(inputs: readonly JoinInput[], db: AppDatabase): Promise<BatchReads> {
  const addressesByWaitlist = new Map<string, Set<string>>();
  for (const input of inputs) {
    const waitlistId = input.waitlistId.toLowerCase();
    (addressesByWaitlist.get(waitlistId) ?? addressesByWaitlist.set(waitlistId, new Set()).get(waitlistId)!).add(joinAddress(input).toLowerCase());
  }
  const [waitlists, found, codes] = await Promise.all([
    Promise.all(
      [...addressesByWaitlist.keys()].map(async (id) => {
        const [waitlist, settings] = await Promise.all([getWaitlist(id, db), joinSettingsOf(id, db)]);
        return [id, waitlist && { waitlist, settings }] as const;
      }),
    ),
    Promise.all([...addressesByWaitlist].map(async ([waitlistId, addresses]) => [waitlistId, await signupsWithAddresses(waitlistId, [...addresses], db)] as const)),
    unusedReferralCodes(inputs.length, db),
  ]);
  const existing = new Map<string, number>();
  for (const [waitlistId, ids] of found) for (const [address, id] of ids) existing.set(addressKey(waitlistId, address), id);
  return { waitlists: new Map(waitlists), existing, codes };
}

/** The ids of the signups of the waitlist that have these addresses (lowercase), by address. */
async function signupsWithAddresses(waitlistId: string, addresses: readonly string[], db: AppDatabase): Promise<Map<string, number>> {
  const rows = await preparedSql<{ id: number; address: string }>(
    db,
    "joining.batch.existing",
    (d) => sql`SELECT id, lower(email) AS address FROM signups WHERE waitlist_id = ${sql.placeholder("waitlistId")} AND lower(email) ${d.inJson(sql.placeholder("addresses"))}`,
  ).all({ waitlistId, addresses: JSON.stringify(addresses) });
  return new Map(rows.map((row) => [row.address, Number(row.id)]));
}

/** Inserts the batch's new signups in one statement: each join's id, by its referral code (the order RETURNING gives is the engine's). */
async function insertSignups(joins: readonly NewJoin[], at: number, db: AppDatabase): Promise<void> {
  const rows = joins.map((join) => {
    const source = join.input.source ?? {};
    return sql`(${join.waitlistId}, ${join.checked.email}, 0, ${join.referrerId === undefined ? 0 : 1}, ${JSON.stringify(join.checked.customInputs)}, ${at}, 'waiting', ${join.code!}, ${join.referrerId ?? null}, ${source.utm_source ?? null}, ${source.utm_medium ?? null}, ${source.utm_campaign ?? null}, ${source.referrer ?? null})`;
  });
  const inserted = await batchSql<{ id: number; code: string }>(
    db,
    () => sql`INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status, referral_code, referred_by, utm_source, utm_medium, utm_campaign, referrer)
       VALUES ${sql.join(rows, sql`, `)} RETURNING id, referral_code AS code`,
  ).all();
  const ids = new Map(inserted.map((row) => [row.code, Number(row.id)]));
  for (const join of joins) join.id = ids.get(join.code!)!;
}

/**
 * Joins each input, in order, at `at` (inside the caller's write transaction, with the batch's
 * counters for the burst rule and its reads, readJoinBatch): a new signup, the id of the one the
 * address already has, or why the join was refused. Refused joins write nothing. The counters' hits
 * are written too (the caller's limits', made before, and the burst rule's).
 */
export async function joinAll(inputs: readonly JoinInput[], counters: CounterBatch, reads: BatchReads, at: number, db: AppDatabase): Promise<(JoinFound | JoinRefused)[]> {
  const results: (JoinFound | JoinRefused | NewJoin | { sameAs: NewJoin })[] = inputs.map((input) => {
    const found = reads.waitlists.get(input.waitlistId.toLowerCase());
    try {
      const checked = checkJoin(input, found);
      return { input, checked, waitlistId: found!.waitlist.id, verifies: found!.settings.verification, flags: [] };
    } catch (error) {
      if (error instanceof JoinRefused) return error;
      throw error;
    }
  });

  // The addresses the waitlists have already, then the batch's own: a second join of one address finds the first.
  const joining = new Map<string, NewJoin>();
  for (const [index, result] of results.entries()) {
    if (!("checked" in result)) continue;
    const key = addressKey(result.waitlistId, result.checked.email);
    const known = reads.existing.get(key);
    const first = joining.get(key);
    if (known !== undefined) results[index] = { created: false, signupId: known };
    else if (first) results[index] = { sameAs: first };
    else {
      joining.set(key, result);
      if (result.input.referralCode !== undefined) result.referrerId = await signupWithReferralCode(result.waitlistId, result.input.referralCode, db);
      const burst = result.input.clientAddress !== undefined && hitBurst(counters, await burstKey(result.waitlistId, result.input.clientAddress, db));
      // The rules of lib/domain/fraud: a flagged signup waits for review, and so does its referral.
      result.flags = [...(result.checked.disposable ? ["disposable" as const] : []), ...(burst ? ["burst" as const] : [])];
    }
  }

  const joins = [...joining.values()];
  if (joins.length > 0) {
    for (const join of joins) join.code = reads.codes.shift();
    await insertSignups(joins, at, db);
    for (const [key, join] of joining) reads.existing.set(key, join.id!);
    // One after the other: two referrals by one referrer move it twice.
    for (const join of joins) {
      await recordFlags(join.id!, join.waitlistId, join.flags, at, db);
      if (join.referrerId !== undefined) await recordReferral({ signupId: join.id!, referrerId: join.referrerId, waitlistId: join.waitlistId, email: join.checked.email, verifies: join.verifies, held: join.flags.length > 0 }, at, db);
    }
  }
  // Each waitlist's events and places together, and the counters hit so far (the burst rule's hits are
  // all above): on PostgreSQL, statements sent together share a round trip.
  const places = new Map<number, number | null>();
  await Promise.all([
    counters.write(),
    ...[...new Set(joins.map((join) => join.waitlistId))].map(async (waitlistId) => {
      const ids = joins.filter((join) => join.waitlistId === waitlistId).map((join) => join.id!).sort((a, b) => a - b);
      const [, placesOfIds] = await Promise.all([appendEventPerSignup("signup.created", waitlistId, JSON.stringify(ids), {}, db, at), placesOfNewSignups(waitlistId, ids, at, db)]);
      placesOfIds.forEach((place, index) => places.set(ids[index]!, place));
    }),
  ]);

  const made = (join: NewJoin): JoinFound => ({
    created: true,
    signup: { id: join.id!, email: join.checked.email, verified: false, referral: join.referrerId !== undefined, custom_inputs: join.checked.customInputs, status: "waiting", position: places.get(join.id!) ?? null, referral_code: join.code! },
  });
  return results.map((result) => ("sameAs" in result ? { created: false, signupId: result.sameAs.id! } : "checked" in result ? made(result) : result));
}
