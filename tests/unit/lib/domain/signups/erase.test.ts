import { existsSync, readFileSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditHash, listAudit } from "@/lib/domain/audit/log";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { listEventFeed } from "@/lib/domain/deliveries/feed";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { joinedSignup, joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { countSignups } from "@/lib/domain/signups/counts";
import { signupCsvChunks } from "@/lib/domain/signups/csv";
import { eraseAddress, erasedFromDisk, eraseSignup } from "@/lib/domain/signups/erase";
import { inputFacets } from "@/lib/domain/signups/facets";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { listSignupRows, signupJsonBatches, signupRowBatches } from "@/lib/domain/signups/queries";
import { confirmSignup } from "@/lib/domain/verification/confirm";
import { JOINED_LINK_LIFETIME_MS, readLinkToken, signLinkToken } from "@/lib/domain/verification/link-token";
import { resendConfirmation } from "@/lib/domain/verification/resend";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { allOf, textOf } from "@/tests/support/batches";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// Erasure must reach everything derived from a signup: the counts, the input pairs and their
// counts, the search index, and so every read built on them (table, facets, CSV, /v1, the finder),
// and leave no copy of the address in the file, the WAL or the audit log.

const ADDRESS = "Jane.Doe@Example.com";
let temp: TempDatabase;
let alpha: string;
let beta: string;

function add(waitlistId: string, email: string, verified: boolean, inputs: unknown[] = []) {
  insertSignups(waitlistId, [{ email, verified, referral: false, customInputs: JSON.stringify(inputs), createdAt: Date.UTC(2026, 0, 2) }], temp.db);
}

async function everything(waitlistId: string): Promise<string> {
  const csv = await textOf(signupCsvChunks(signupRowBatches({ waitlistId }, 1000, temp.db)));
  const json = JSON.stringify(await allOf(signupJsonBatches({ waitlistId }, 1000, temp.db)));
  return `${csv}\n${json}`.toLowerCase();
}

const trigramQuery = (text: string) =>
  Array.from({ length: text.length - 2 }, (_, index) => `"${text.slice(index, index + 3)}"`).join(" AND ");

function derivedRowsOf(email: string) {
  const sqlite = temp.db.$client;
  return {
    inputs: sqlite.prepare("SELECT count(*) AS n FROM signup_inputs WHERE value = 'Erasedco'").get(),
    inputCounts: sqlite.prepare("SELECT count(*) AS n FROM signup_input_counts WHERE value = 'Erasedco'").get(),
    // MATCH reads the index itself (LIKE on an external-content table reads `signups` too). With
    // detail=none a query is an AND of single trigrams, not a phrase.
    search: sqlite.prepare("SELECT count(*) AS n FROM signup_email_search WHERE signup_email_search MATCH ?").get(trigramQuery(email)),
  };
}

beforeEach(async () => {
  temp = tempDatabase();
  alpha = (await createWaitlist({ name: "Alpha", website: "https://alpha.example" }, temp.db)).id;
  beta = (await createWaitlist({ name: "Beta", website: "https://beta.example" }, temp.db)).id;
  add(alpha, ADDRESS, true, [{ label: "company", value: "Erasedco" }]);
  add(alpha, "janet.doe@example.com", false, [{ label: "company", value: "Keptco" }]);
  add(alpha, "bob@example.com", true, [{ label: "company", value: "Keptco" }]);
  add(beta, "jane.doe@example.com", false, [{ company: "Erasedco" }]);
  add(beta, "carol@example.com", false);
});
afterEach(() => temp.close());

describe("eraseAddress", () => {
  it("erases the address in any case from every waitlist, with everything derived from it", async () => {
    expect(derivedRowsOf("jane.doe")).toEqual({ inputs: { n: 2 }, inputCounts: { n: 2 }, search: { n: 2 } });
    expect(await countSignups({ waitlistId: alpha }, temp.db)).toMatchObject({ total: 3, verified: 2 });

    expect(await eraseAddress("cli", { email: " JANE.DOE@example.COM " }, temp.db)).toEqual({ erased: 2, waitlists: 2 });

    // Counts (signup_counts) and the per-flag facets.
    expect(await countSignups({ waitlistId: alpha }, temp.db)).toMatchObject({ total: 2, verified: 1, verifiedFacet: { yes: 1, no: 1 } });
    expect(await countSignups({ waitlistId: beta }, temp.db)).toMatchObject({ total: 1, verified: 0 });
    // Input facets and their side tables.
    expect(await inputFacets({ waitlistId: alpha }, {}, temp.db)).toEqual([{ label: "company", distinct: 1, values: [{ value: "Keptco", count: 2 }], exact: true }]);
    expect(await inputFacets({ waitlistId: beta }, {}, temp.db)).toEqual([]);
    // The search index, the table's search and its count.
    expect(derivedRowsOf("jane.doe")).toEqual({ inputs: { n: 0 }, inputCounts: { n: 0 }, search: { n: 0 } });
    expect((await listSignupRows({ scope: { waitlistId: alpha, emailContains: "doe@" }, offset: 0, limit: 10 }, temp.db)).map((row) => row.email)).toEqual(["janet.doe@example.com"]);
    expect((await countSignups({ waitlistId: alpha, email: ADDRESS }, temp.db)).total).toBe(0);
    // The CSV export and the /v1 list.
    expect(await everything(alpha)).not.toContain("jane.doe@");
    expect(await everything(alpha)).toContain("janet.doe@example.com");
    expect(await everything(beta)).not.toContain("jane.doe@");
    // The finder.
    expect(await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).toEqual([]);
    expect((await findSignupsByEmail({ contains: "doe@example", limit: 10 }, temp.db)).map((found) => found.email)).toEqual(["janet.doe@example.com"]);
    // The derived data is still exactly what it would be without the erased signups.
    const sqlite = temp.db.$client;
    expect(sqlite.prepare("SELECT waitlist_id, sum(count) AS n FROM signup_counts GROUP BY waitlist_id ORDER BY n").all()).toEqual([
      { waitlist_id: beta, n: 1 },
      { waitlist_id: alpha, n: 2 },
    ]);
    expect(() => sqlite.prepare("INSERT INTO signup_email_search (signup_email_search) VALUES ('integrity-check')").run()).not.toThrow();
    // The index removes deleted entries at once instead of marking them (migration 0006).
    expect(sqlite.prepare("SELECT v FROM signup_email_search_config WHERE k = 'secure-delete'").get()).toEqual({ v: 1 });
  });

  it("records the erasure with a keyed hash of the address, never the address", async () => {
    await eraseAddress({ keyId: "key-1", keyName: "ops" }, { email: ADDRESS }, temp.db);
    const rows = await listAudit({ action: "signup.erase", limit: 10 }, temp.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "signup.erase", target: await auditHash("jane.doe@example.com", temp.db), summary: "erased 2 signups from 2 waitlists" });
    expect(rows[0]!.target).toMatch(/^[0-9a-f]{64}$/);
    const everyAuditRow = JSON.stringify(temp.db.$client.prepare("SELECT * FROM audit_log").all()).toLowerCase();
    expect(everyAuditRow).not.toContain("jane");
    expect(everyAuditRow).not.toContain("doe@");
  });

  it("leaves no copy of the address in the database file or its WAL (secure_delete, then a checkpoint)", async () => {
    await eraseAddress("cli", { email: ADDRESS }, temp.db);
    const bytes = Buffer.concat([readFileSync(temp.path), readFileSync(`${temp.path}-wal`)]).toString("latin1").toLowerCase();
    expect(bytes).toContain("janet.doe@example.com");
    expect(bytes).not.toContain("jane.doe@example.com");
  });

  it("erases the person's deliveries too: webhook bodies and rendered invitation emails, leaving no copy on disk", async () => {
    await addEndpoint("cli", { url: "https://hooks.example/in" }, temp.db);
    await updateInvitationEmail("cli", alpha, { enabled: true, body: "Hello {{email}}" }, temp.db);
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId: alpha, emails: [ADDRESS, "bob@example.com"] } }, temp.db);
    await fanOutEvents({ limit: 100, emailConfigured: false }, temp.db);
    const sqlite = temp.db.$client;
    const deliveriesNaming = (address: string) =>
      sqlite.prepare("SELECT count(*) FROM deliveries WHERE lower(coalesce(recipient, '') || coalesce(body, '')) LIKE ?").pluck().get(`%${address}%`);
    expect(deliveriesNaming("jane.doe@example.com")).toBe(2);

    await eraseAddress("cli", { email: ADDRESS }, temp.db);
    expect(deliveriesNaming("jane.doe@example.com")).toBe(0);
    expect(deliveriesNaming("bob@example.com")).toBe(2);
    // The erasure's own event is fanned out later without the address.
    await fanOutEvents({ limit: 100, emailConfigured: false }, temp.db);
    expect(deliveriesNaming("jane.doe@example.com")).toBe(0);
    const bytes = Buffer.concat([readFileSync(temp.path), readFileSync(`${temp.path}-wal`)]).toString("latin1").toLowerCase();
    expect(bytes).not.toContain("jane.doe@example.com");
  });

  it("takes the address off the disk once a reader that held up the checkpoint ends, without another write", async () => {
    const onDisk = () =>
      ["", "-wal", "-shm"]
        .map((suffix) => `${temp.path}${suffix}`)
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path).toString("latin1").toLowerCase())
        .join("\n");
    const reader = new Database(temp.path, { readonly: true });
    const rows = reader.prepare("SELECT email FROM signups").iterate();
    rows.next();
    await eraseAddress("cli", { email: ADDRESS }, temp.db);
    expect(await erasedFromDisk(300, temp.db)).toBe(false);
    // The reader's snapshot still needs the old pages: they are on disk, in the file or the WAL.
    expect(onDisk()).toContain("jane.doe@example.com");
    rows.return?.();
    reader.close();
    expect(await erasedFromDisk(5_000, temp.db)).toBe(true);
    expect(onDisk()).not.toContain("jane.doe@example.com");
    expect(onDisk()).toContain("janet.doe@example.com");
    expect(statSync(`${temp.path}-wal`).size).toBe(0);
  });

  it("leaves no day-count row behind for a day and flags that only the erased signup had", async () => {
    const cells = () => temp.db.$client.prepare("SELECT verified, referral, count FROM signup_counts WHERE waitlist_id = ? ORDER BY verified").all(beta);
    expect(cells()).toEqual([{ verified: 0, referral: 0, count: 2 }]);
    await eraseAddress("cli", { email: "carol@example.com" }, temp.db);
    await eraseAddress("cli", { email: ADDRESS }, temp.db);
    expect(cells()).toEqual([]);
  });

  it("never waits for a reader to let the WAL be emptied (it would stall the server for the busy timeout)", async () => {
    const reader = new Database(temp.path, { readonly: true });
    try {
      // A read in progress (as a CSV export holds one) keeps its snapshot of the WAL.
      const rows = reader.prepare("SELECT email FROM signups").iterate();
      rows.next();
      const started = Date.now();
      expect(await eraseAddress("cli", { email: ADDRESS }, temp.db)).toEqual({ erased: 2, waitlists: 2 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(temp.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
      rows.return?.();
    } finally {
      reader.close();
    }
    expect(await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).toEqual([]);
  });

  it("from the server, waits for another process's write lock (an import) without blocking the event loop", async () => {
    const importer = new Database(temp.path);
    importer.exec("BEGIN IMMEDIATE");
    const started = Date.now();
    const erasure = writeWithoutBlocking(() => eraseAddress("cli", { email: ADDRESS }, temp.db), temp.db);
    // The event loop keeps turning while the erasure waits.
    const ticked = await new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - started), 50));
    expect(ticked).toBeLessThan(1000);
    expect(await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).toHaveLength(2);
    importer.exec("COMMIT");
    importer.close();
    await expect(erasure).resolves.toEqual({ erased: 2, waitlists: 2 });
  });

  it("erases from one waitlist only when one is given", async () => {
    expect(await eraseAddress("cli", { email: ADDRESS, waitlist: beta }, temp.db)).toEqual({ erased: 1, waitlists: 1 });
    expect((await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).map((found) => found.waitlistId)).toEqual([alpha]);
  });

  it("records a request that finds nothing, and refuses an unknown waitlist without erasing or recording", async () => {
    expect(await eraseAddress("cli", { email: "nobody@example.com" }, temp.db)).toEqual({ erased: 0, waitlists: 0 });
    expect((await listAudit({ limit: 10 }, temp.db)).map((row) => row.summary)).toEqual(["erased 0 signups from 0 waitlists"]);
    await expect(eraseAddress("cli", { email: ADDRESS, waitlist: "00000000-0000-4000-8000-000000000000" }, temp.db)).rejects.toThrow(/No waitlist has the id/);
    await expect(eraseAddress("cli", { email: "" }, temp.db)).rejects.toThrow();
    expect(await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).toHaveLength(2);
    expect(await listAudit({ limit: 10 }, temp.db)).toHaveLength(1);
  });
});

describe("eraseSignup", () => {
  it("erases one signup, leaving the same address in another waitlist", async () => {
    const [signup] = (await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).filter((found) => found.waitlistId === alpha);
    expect(await eraseSignup("cli", alpha, signup!.signupId, temp.db)).toEqual({ erased: 1, waitlists: 1 });
    expect((await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).map((found) => found.waitlistId)).toEqual([beta]);
    expect((await countSignups({ waitlistId: alpha }, temp.db)).total).toBe(2);
    expect((await listAudit({ limit: 10 }, temp.db))[0]).toMatchObject({ target: await auditHash(ADDRESS, temp.db), summary: "erased 1 signup from 1 waitlist" });
  });

  it("refuses a signup of another waitlist, and erases nothing", async () => {
    const [signup] = (await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).filter((found) => found.waitlistId === alpha);
    await expect(eraseSignup("cli", beta, signup!.signupId, temp.db)).rejects.toThrow(/has no signup/);
    expect(await findSignupsByEmail({ email: ADDRESS, limit: 10 }, temp.db)).toHaveLength(2);
    expect(await listAudit({ limit: 10 }, temp.db)).toEqual([]);
  });
});

describe("an erased signup's id is never given again", () => {
  const PUBLIC_URL = "https://waitlist.example";

  it("the next join gets a new id, so the erased person's links, tokens and events name no one else", async () => {
    await updateJoinSettings(alpha, { joining: "open", verification: true }, "cli", temp.db);
    // X joins last of all (the newest id) and gets the confirmation email and the joined page's link.
    const x = (await joinWaitlist({ waitlistId: alpha, email: "x@example.com", customInputs: [] }, temp.db)).signup;
    await fanOutEvents({ limit: 10, emailConfigured: true, publicUrl: PUBLIC_URL }, temp.db);
    const mail = temp.db.$client.prepare("SELECT body FROM deliveries WHERE recipient = 'x@example.com'").pluck().get() as string;
    const confirmToken = decodeURIComponent(/\/confirm\?token=([^\s]+)/.exec(mail)![1]!);
    const joinedToken = await signLinkToken({ purpose: "joined", waitlistId: alpha, signupId: x.id, expiresAt: new Date(Date.now() + JOINED_LINK_LIFETIME_MS) }, temp.db);
    const feedBefore = (await listEventFeed(alpha, {}, temp.db)).items;

    await eraseSignup("cli", alpha, x.id, temp.db);
    const y = (await joinWaitlist({ waitlistId: alpha, email: "y@example.com", customInputs: [] }, temp.db)).signup;
    expect(y.id).toBeGreaterThan(x.id);

    // The joined page's token still has a good signature, but names a signup that is gone for good.
    const joined = await readLinkToken(joinedToken, "joined", Date.now(), temp.db);
    expect(joined.ok && await joinedSignup(alpha, joined.claims.signupId, temp.db)).toBeUndefined();
    expect(await resendConfirmation(alpha, x.id, { emailConfigured: true, publicUrl: PUBLIC_URL }, temp.db)).toEqual({ sent: false, reason: "gone" });
    expect(await confirmSignup(alpha, confirmToken, Date.now(), temp.db)).toBe("gone");
    expect(await joinedSignup(alpha, y.id, temp.db)).toMatchObject({ email: "y@example.com", verified: false });

    // X's events, before and after its erasure, name X's id alone: never Y's address or id.
    const feedAfter = (await listEventFeed(alpha, {}, temp.db)).items;
    const xEvents = feedAfter.slice(0, feedBefore.length + 1).map((item) => JSON.parse(item) as { type: string; data: { signup: unknown } });
    expect(xEvents.map((event) => [event.type, event.data.signup])).toEqual([
      ["signup.created", { id: String(x.id) }],
      ["signup.erased", { id: String(x.id) }],
    ]);
    const xEventsText = feedAfter.slice(0, feedBefore.length + 1).join();
    expect(xEventsText).not.toContain("y@example.com");
    expect(xEventsText).not.toContain(`"id":"${y.id}"`);
  });
});
