import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { insertSignups } from "@/tests/support/insert-signups";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlistAs, deleteWaitlistAs, DuplicateWaitlistNameError, updateWaitlistAs } from "@/lib/domain/waitlists/manage";
import { getWaitlist, listWaitlists } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

const ADMIN = { keyId: "key-1", keyName: "ops" };
const names = async () => (await listWaitlists({}, temp.db)).items.map((waitlist) => waitlist.name);
const audit = async () => (await listAudit({ limit: 50 }, temp.db)).map(({ action, target, summary, actor }) => ({ action, target, summary, actor }));

describe("createWaitlistAs", () => {
  it("creates and records it", async () => {
    const created = await createWaitlistAs(ADMIN, { name: " Acme Beta ", website: "https://acme.example" }, temp.db);
    expect(created).toMatchObject({ name: "Acme Beta", website: "https://acme.example/" });
    expect(await audit()).toEqual([{ action: "waitlist.create", target: created.id, summary: 'created "Acme Beta" (https://acme.example/)', actor: "ops" }]);
  });

  it("refuses a name already in use, in any case, unless allowed", async () => {
    const first = await createWaitlistAs("cli", { name: "Acme Beta", website: "https://acme.example" }, temp.db);
    const attempt = () => createWaitlistAs("cli", { name: "acme beta ", website: "https://acme.example" }, temp.db);
    await expect(attempt()).rejects.toThrow(DuplicateWaitlistNameError);
    await expect(attempt()).rejects.toThrow(`a waitlist named "acme beta" already exists (${first.id})`);
    expect(await names()).toEqual(["Acme Beta"]);
    expect(await audit()).toHaveLength(1);
    await createWaitlistAs("cli", { name: "acme beta", website: "https://acme.example", allowDuplicateName: "true" }, temp.db);
    expect(await names()).toEqual(["Acme Beta", "acme beta"]);
  });
});

describe("updateWaitlistAs", () => {
  it("renames, changes the website, and records what changed", async () => {
    const { id } = await createWaitlistAs("cli", { name: "Old", website: "https://old.example" }, temp.db);
    expect(await updateWaitlistAs(ADMIN, id, { name: "New" }, temp.db)).toMatchObject({ name: "New", website: "https://old.example/" });
    expect(await updateWaitlistAs(ADMIN, id, { website: "https://new.example/x" }, temp.db)).toMatchObject({ name: "New", website: "https://new.example/x" });
    expect(await getWaitlist(id, temp.db)).toMatchObject({ name: "New", website: "https://new.example/x" });
    expect((await audit()).slice(0, 2)).toEqual([
      { action: "waitlist.update", target: id, summary: "website https://old.example/ → https://new.example/x", actor: "ops" },
      { action: "waitlist.update", target: id, summary: 'renamed "Old" to "New"', actor: "ops" },
    ]);
  });

  it("refuses another waitlist's name, bad input and unknown ids, changing nothing", async () => {
    await createWaitlistAs("cli", { name: "Taken", website: "https://a.example" }, temp.db);
    const { id } = await createWaitlistAs("cli", { name: "Mine", website: "https://b.example" }, temp.db);
    await expect(updateWaitlistAs("cli", id, { name: "TAKEN" }, temp.db)).rejects.toThrow(DuplicateWaitlistNameError);
    await expect(updateWaitlistAs("cli", id, {}, temp.db)).rejects.toThrow(/give a new name/);
    await expect(updateWaitlistAs("cli", id, { website: "ftp://x" }, temp.db)).rejects.toThrow();
    await expect(updateWaitlistAs("cli", "00000000-0000-4000-8000-000000000000", { name: "X" }, temp.db)).rejects.toThrow(/No waitlist has the id/);
    expect(await names()).toEqual(["Taken", "Mine"]);
    expect(await audit()).toHaveLength(2);
    // Its own name in another case is not a duplicate.
    expect((await updateWaitlistAs("cli", id, { name: "MINE" }, temp.db)).name).toBe("MINE");
  });
});

describe("deleteWaitlistAs", () => {
  it("needs the exact name, then deletes the waitlist, its signups and everything derived from them", async () => {
    const { id } = await createWaitlistAs("cli", { name: "Doomed", website: "https://d.example" }, temp.db);
    const kept = await createWaitlistAs("cli", { name: "Kept", website: "https://k.example" }, temp.db);
    for (const target of [id, kept.id]) {
      insertSignups(
        target,
        Array.from({ length: 5 }, (_, index) => ({ email: `p${index}@example.com`, verified: index % 2 === 0, referral: false, customInputs: '[{"label":"plan","value":"pro"}]' })),
        temp.db,
      );
    }
    for (const target of [id, kept.id]) await applyStatusAction("cli", { action: "invite", selection: { waitlistId: target, emails: ["p0@example.com"] } }, temp.db);
    await expect(deleteWaitlistAs("cli", id, { confirm: "doomed" }, temp.db)).rejects.toThrow(`the confirmation must be the waitlist's name exactly ("Doomed")`);
    expect(await getWaitlist(id, temp.db)).toBeDefined();

    expect(await deleteWaitlistAs(ADMIN, id, { confirm: "Doomed" }, temp.db)).toEqual({ id, name: "Doomed", signups: 5 });
    expect(await getWaitlist(id, temp.db)).toBeUndefined();
    const sqlite = temp.db.$client;
    // Events too: their bodies held the signups' addresses.
    for (const table of ["signups", "signup_counts", "signup_inputs", "signup_input_counts", "events"]) {
      expect(sqlite.prepare(`SELECT count(*) AS n FROM ${table} WHERE waitlist_id = ?`).get(id), table).toEqual({ n: 0 });
      expect(sqlite.prepare(`SELECT count(*) AS n FROM ${table} WHERE waitlist_id = ?`).get(kept.id), table).not.toEqual({ n: 0 });
    }
    expect(sqlite.prepare(`SELECT count(*) AS n FROM signup_email_search WHERE signup_email_search MATCH '"p0@"'`).get()).toEqual({ n: 1 });
    expect((await audit())[0]).toEqual({ action: "waitlist.delete", target: id, summary: 'deleted "Doomed" and its 5 signups', actor: "ops" });
  });
});
