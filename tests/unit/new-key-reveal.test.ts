import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { holdNewKey, takeNewKey } from "@/lib/domain/new-key-reveals";
import { openDatabase, type AppDatabase } from "@/db/client";
import { tempDatabase, type TempDatabase } from "./temp-db";

const KEY = { id: "k1", name: "ci", key: "wl_secret" };

let temp: TempDatabase;
let other: AppDatabase | undefined;
beforeEach(() => {
  temp = tempDatabase();
});
afterEach(() => {
  other?.$client.close();
  temp.close();
});

describe("a new key shown once", () => {
  it("gives the key back once, to the session that created it, through any connection", () => {
    const ticket = holdNewKey(KEY, "session-key", temp.db);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another worker of the server: another connection to the same file.
    other = openDatabase(temp.path);
    expect(takeNewKey(ticket, "another-key", other)).toBeUndefined();
    expect(takeNewKey(ticket, "session-key", other)).toEqual(KEY);
    expect(takeNewKey(ticket, "session-key", temp.db)).toBeUndefined();
    expect(takeNewKey("made-up", "session-key", temp.db)).toBeUndefined();
    expect(takeNewKey(undefined, "session-key", temp.db)).toBeUndefined();
  });

  it("stores neither the key nor the ticket in the clear", () => {
    const ticket = holdNewKey(KEY, "s", temp.db);
    const dump = JSON.stringify(temp.db.$client.prepare("SELECT hex(ticket_hash) AS t, hex(sealed) AS s FROM new_key_reveals").all());
    expect(dump).not.toContain(Buffer.from("wl_secret").toString("hex").toUpperCase());
    expect(dump).not.toContain(Buffer.from(ticket, "base64url").toString("hex").toUpperCase());
  });

  it("forgets a key after five minutes", () => {
    const ticket = holdNewKey(KEY, "s", temp.db, 0);
    expect(takeNewKey(ticket, "s", temp.db, 5 * 60_000)).toBeUndefined();
    const fresh = holdNewKey(KEY, "s", temp.db, 0);
    expect(takeNewKey(fresh, "s", temp.db, 5 * 60_000 - 1)).toEqual(KEY);
    // Expired rows go when the next key is held.
    holdNewKey(KEY, "s", temp.db, 0);
    holdNewKey(KEY, "s", temp.db, 10 * 60_000);
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM new_key_reveals").get()).toEqual({ n: 1 });
  });
});
