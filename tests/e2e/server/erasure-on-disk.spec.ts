import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { getDb } from "@/db/client";
import { ERASURE_DISK_WAIT_MS } from "@/lib/domain/signups/erase";
import { findSignupsByEmail } from "@/lib/domain/signups/find";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, signIn, unique } from "../support/support";

// An erasure must reach the disk even while something reads: a reader holding an older snapshot (an
// export, a backup, an operator's sqlite3) keeps the old pages in the file and the WAL, and the
// checkpoint that removes them is retried until the reader ends. Checked on the real server's file,
// its -wal and -shm, byte by byte: the address in the signup and in its events' bodies.

const databasePath = process.env.DATABASE_PATH!;

function onDisk(): string {
  return ["", "-wal", "-shm"]
    .map((suffix) => `${databasePath}${suffix}`)
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString("latin1").toLowerCase())
    .join("\n");
}

function eventBodiesOf(waitlistId: string): string[] {
  return getDb().$client.prepare("SELECT body FROM events WHERE waitlist_id = ? ORDER BY id").pluck().all(waitlistId) as string[];
}

/** Polls until no byte of `address` is left in the database's files. */
async function expectOffDisk(address: string, timeout = 15_000) {
  await expect.poll(() => onDisk().includes(address.toLowerCase()), { timeout, intervals: [100, 250, 500] }).toBe(false);
}

/** A read transaction in another connection, as a long export or `sqlite3` holds one. */
function holdReader() {
  const reader = new Database(databasePath, { readonly: true });
  reader.exec("BEGIN");
  reader.prepare("SELECT count(*) FROM signups").get();
  return () => {
    reader.exec("COMMIT");
    reader.close();
  };
}

/** A person on a new list, invited: the event's body (what its webhooks and the /v1 feed carry) holds the address too. */
async function personOnAList() {
  const address = `${unique("disk").replace(/\W/g, "")}@erase.example`;
  const waitlist = await createWaitlist({ name: unique("Erasure on disk"), website: "https://disk.example" });
  await insertSignups(waitlist.id, [{ email: address, verified: true, referral: false, customInputs: [], createdAt: new Date() }]);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [address] } });
  expect(eventBodiesOf(waitlist.id).join()).toContain(address);
  return { address, waitlist, signupId: (await findSignupsByEmail({ email: address, limit: 1 }))[0]!.signupId };
}

test.describe("an erasure while a reader holds an older snapshot", () => {
  test.beforeEach(async ({ context }) => {
    await signIn(context, ["waitlist:admin"]);
  });

  test("from the dashboard: says the data stays until the read ends, then it leaves the file, the WAL and the -shm", async ({ page }) => {
    const { address, waitlist, signupId } = await personOnAList();
    const release = holdReader();
    try {
      await page.goto(`/waitlists/${waitlist.id}/signups/${signupId}/erase`);
      await page.getByRole("button", { name: "Erase this signup" }).click();
      await expect(page).toHaveURL(`/waitlists/${waitlist.id}?done=erased-on-disk`, { timeout: ERASURE_DISK_WAIT_MS.dashboard + 10_000 });
      await expect(page.getByTestId("done-notice")).toContainText("stays on the disk until that read ends");
      expect(await findSignupsByEmail({ email: address, limit: 1 })).toEqual([]);
      // Still held: the reader's snapshot needs the old pages.
      expect(onDisk()).toContain(address.toLowerCase());
    } finally {
      release();
    }
    await expectOffDisk(address);
  });

  test("from the dashboard: a reader that ends within the wait gives a plain 'erased' and nothing on disk", async ({ page }) => {
    const { address, waitlist, signupId } = await personOnAList();
    const release = holdReader();
    await page.goto(`/waitlists/${waitlist.id}/signups/${signupId}/erase`);
    setTimeout(release, 500);
    await page.getByRole("button", { name: "Erase this signup" }).click();
    await expect(page).toHaveURL(`/waitlists/${waitlist.id}?done=erased`);
    await expect(page.getByTestId("done-notice")).toHaveText("The signup was erased.");
    expect(onDisk()).not.toContain(address.toLowerCase());
    // The events stay, their bodies naming the signup by its id alone.
    expect(eventBodiesOf(waitlist.id).map((body) => (JSON.parse(body) as { type: string; data: { signup: unknown } }).data.signup)).toEqual([{ id: String(signupId) }, { id: String(signupId) }]);
  });

  test("from the CLI while the server runs: the CLI says so after its wait, and the server's erasure watch finishes it", async () => {
    test.setTimeout(60_000);
    const { address } = await personOnAList();
    const release = holdReader();
    let result;
    try {
      result = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "signups", "erase", "--email", address.toUpperCase()], {
        encoding: "utf8",
        env: { ...process.env, NODE_NO_WARNINGS: "1" },
      });
      expect(onDisk()).toContain(address.toLowerCase());
    } finally {
      release();
    }
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Erased 1 signup from 1 waitlist\. A long read .* stays on the disk until that read ends/);
    // The CLI has exited: the server notices the erasure in its audit log and checkpoints.
    await expectOffDisk(address);
  });
});
