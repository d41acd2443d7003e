import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countSignups, countSignupsSince, signupsPerDay } from "@/lib/domain/signups/counts";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Without a search, the counts come from signup_counts (written by the bulk writer, kept by triggers
// on update and delete); with a search that matches every email ("@"), from a scan of signups. The
// two must always agree.

const DAY = 86_400_000;
const BASE = Date.UTC(2026, 2, 1);
const FILTERS = [undefined, true, false] as const;

let temp: TempDatabase;
let main: string;
let other: string;

function scopes(waitlistId: string): SignupScope[] {
  return FILTERS.flatMap((verified) => FILTERS.map((referral) => ({ waitlistId, verified, referral })));
}

async function expectTablesAgreeWithScans(waitlistId: string) {
  const windows = [new Date(0), new Date(BASE + 3 * DAY), new Date(BASE + 3 * DAY + 5 * 3_600_000), new Date(BASE + 40 * DAY)];
  for (const scope of scopes(waitlistId)) {
    const scanned = { ...scope, search: "@" };
    expect(await countSignups(scope, temp.db)).toEqual(await countSignups(scanned, temp.db));
    for (const since of windows) {
      expect(await countSignupsSince(scope, since, temp.db)).toBe(await countSignupsSince(scanned, since, temp.db));
      expect(await signupsPerDay(scope, since, temp.db)).toEqual(await signupsPerDay(scanned, since, temp.db));
    }
  }
}

beforeAll(async () => {
  temp = tempDatabase();
  main = (await createWaitlist({ name: "Main", website: "https://e.com" }, temp.db)).id;
  other = (await createWaitlist({ name: "Other", website: "https://e.com" }, temp.db)).id;
  // Several signups per day at different hours, so partial days matter.
  const signups = Array.from({ length: 300 }, (_, index) => ({ email: `user${index}@example.com`, verified: index % 3 !== 0, referral: index % 4 === 0, customInputs: "[]", createdAt: BASE + index * 7_200_000 }));
  insertSignups(main, signups, temp.db);
  insertSignups(other, signups.filter((_, index) => index % 2), temp.db);
  expect(insertSignups(main, [{ email: "USER1@example.com", verified: true, referral: true, customInputs: "[]" }], temp.db)).toBe(0); // a duplicate: skipped, not counted
});

afterAll(() => temp.close());

describe("signup counts written in bulk and kept by triggers", () => {
  it("agree with a scan after inserts, for every filter and window", async () => {
    expect((await countSignups({ waitlistId: main }, temp.db)).total).toBe(300);
    expect((await countSignups({ waitlistId: other }, temp.db)).total).toBe(150);
    await expectTablesAgreeWithScans(main);
    await expectTablesAgreeWithScans(other);
  });

  it("follow updates of the flags, the date and the waitlist", async () => {
    const sqlite = temp.db.$client;
    sqlite.prepare("UPDATE signups SET verified = NOT verified WHERE waitlist_id = ? AND id % 5 = 0").run(main);
    sqlite.prepare("UPDATE signups SET created_at = created_at + 2 * ? WHERE waitlist_id = ? AND id % 7 = 0").run(DAY, main);
    sqlite.prepare("UPDATE signups SET waitlist_id = ? WHERE waitlist_id = ? AND email IN ('user28@example.com', 'user100@example.com')").run(other, main);
    await expectTablesAgreeWithScans(main);
    await expectTablesAgreeWithScans(other);
  });

  it("follow deletes, including a waitlist's cascade", async () => {
    const sqlite = temp.db.$client;
    sqlite.prepare("DELETE FROM signups WHERE waitlist_id = ? AND id % 11 = 0").run(main);
    await expectTablesAgreeWithScans(main);
    sqlite.prepare("DELETE FROM waitlists WHERE id = ?").run(other);
    expect((await countSignups({ waitlistId: other }, temp.db)).total).toBe(0);
    expect(await signupsPerDay({ waitlistId: other }, new Date(0), temp.db)).toEqual([]);
    await expectTablesAgreeWithScans(main);
  });
});

describe("the input pairs' counts of signups that are not waiting (signup_input_status_counts)", () => {
  let lists: string[];

  // What the table must hold: the pairs of every signup that is not waiting, recounted.
  function recount() {
    return temp.db.$client
      .prepare(
        `SELECT i.waitlist_id, i.label, i.value, s.status, i.verified, i.referral, count(*) AS count
         FROM signups s JOIN signup_inputs i ON i.signup_id = s.id WHERE s.status <> 'waiting' GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
      )
      .all();
  }
  const table = () => temp.db.$client.prepare("SELECT waitlist_id, label, value, status, verified, referral, count FROM signup_input_status_counts ORDER BY 1, 2, 3, 4, 5, 6").all();

  // An input filter's status facet, chart and recent count agree with a scan of the same signups ("@" matches every address).
  async function expectFacetsAgreeWithScans() {
    expect(table()).toEqual(recount());
    for (const waitlistId of lists) {
      for (const value of ["Engineer", "Designer", "1"]) {
        const label = value === "1" ? "seats" : "role";
        for (const scope of scopes(waitlistId)) {
          const input = { ...scope, inputs: [{ label, value }] };
          for (const status of [undefined, ["rejected"], ["waiting", "invited"]] as const) {
            const filtered = { ...input, status: status ? [...status] : undefined };
            const scanned = { ...filtered, emailContains: "@" };
            const what = `${label}=${value} ${JSON.stringify(scope)} ${status}`;
            expect(await countSignups(filtered, temp.db), what).toEqual(await countSignups(scanned, temp.db));
            for (const since of [new Date(0), new Date(BASE + 2 * DAY + 3_600_000)]) {
              expect(await signupsPerDay(filtered, since, temp.db), what).toEqual(await signupsPerDay(scanned, since, temp.db));
              expect(await countSignupsSince(filtered, since, temp.db), what).toBe(await countSignupsSince(scanned, since, temp.db));
            }
          }
        }
      }
    }
  }

  beforeAll(async () => {
    lists = [(await createWaitlist({ name: "Drained", website: "https://e.com" }, temp.db)).id, (await createWaitlist({ name: "Second", website: "https://e.com" }, temp.db)).id];
    const roles = ["Engineer", "Designer", "Engineer"];
    // Imported with statuses (an export's round trip), one pair given twice, and pairs as properties.
    const rows = Array.from({ length: 120 }, (_, index) => ({
      email: `person${index}@example.com`,
      verified: index % 2 === 0,
      referral: index % 5 === 0,
      customInputs: index % 7 === 0 ? `[{"role":"${roles[index % 3]}","seats":1}]` : `[{"label":"role","value":"${roles[index % 3]}"},{"label":"role","value":"${roles[index % 3]}"},{"label":"seats","value":${index % 4}}]`,
      createdAt: BASE + index * 3_600_000,
      status: (["waiting", "waiting", "invited", "rejected", "completed"] as const)[index % 5],
      statusChangedAt: index % 5 >= 2 ? BASE + 200 * DAY : undefined,
    }));
    insertSignups(lists[0]!, rows, temp.db);
    insertSignups(lists[1]!, rows.slice(0, 40), temp.db);
  });

  it("are written by an import that keeps statuses", async () => {
    expect(table().length).toBeGreaterThan(0);
    await expectFacetsAgreeWithScans();
  });

  it("follow transitions, flag and input changes, moves between waitlists and single inserts", async () => {
    const sqlite = temp.db.$client;
    sqlite.prepare("UPDATE signups SET status = 'invited' WHERE waitlist_id = ? AND status = 'waiting' AND id % 3 = 0").run(lists[0]);
    sqlite.prepare("UPDATE signups SET status = 'completed' WHERE waitlist_id = ? AND status = 'invited' AND id % 2 = 0").run(lists[0]);
    sqlite.prepare("UPDATE signups SET status = 'waiting' WHERE waitlist_id = ? AND status = 'rejected' AND id % 2 = 1").run(lists[0]);
    await expectFacetsAgreeWithScans();
    sqlite.prepare("UPDATE signups SET verified = NOT verified, referral = NOT referral WHERE waitlist_id = ? AND id % 3 = 1").run(lists[0]);
    sqlite.prepare(`UPDATE signups SET custom_inputs = '[{"label":"role","value":"Designer"}]' WHERE waitlist_id = ? AND id % 4 = 1`).run(lists[0]);
    sqlite.prepare("UPDATE signups SET waitlist_id = ? WHERE waitlist_id = ? AND status <> 'waiting' AND id % 6 = 0 AND email NOT IN (SELECT email FROM signups WHERE waitlist_id = ?)").run(lists[1], lists[0], lists[1]);
    sqlite
      .prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at, status) VALUES (?, 'single@example.com', 1, 0, ?, ?, 'rejected')")
      .run(lists[1], '[{"label":"role","value":"Engineer"}]', BASE);
    await expectFacetsAgreeWithScans();
  });

  it("follow erasures and a waitlist's deletion, leaving no rows at zero", async () => {
    const sqlite = temp.db.$client;
    sqlite.prepare("DELETE FROM signups WHERE waitlist_id = ? AND id % 2 = 0").run(lists[0]);
    await expectFacetsAgreeWithScans();
    sqlite.prepare("DELETE FROM waitlists WHERE id = ?").run(lists[1]);
    expect(sqlite.prepare("SELECT count(*) AS n FROM signup_input_status_counts WHERE waitlist_id = ? OR count <= 0").get(lists[1])).toEqual({ n: 0 });
    await expectFacetsAgreeWithScans();
  });
});
