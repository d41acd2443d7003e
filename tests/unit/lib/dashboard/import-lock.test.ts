import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { takeImportLock } from "@/lib/dashboard/import-lock";

describe("takeImportLock", () => {
  const folder = mkdtempSync(join(tmpdir(), "import-lock-"));
  const database = join(folder, "waitlist.db");
  afterEach(() => rmSync(`${database}-import.lock`, { force: true }));

  it("one holder at a time; released (any number of times), it can be taken again", () => {
    const release = takeImportLock(database);
    expect(release).toEqual(expect.any(Function));
    expect(existsSync(`${database}-import.lock`)).toBe(true);
    expect(takeImportLock(database)).toBeNull();
    release!();
    release!();
    expect(existsSync(`${database}-import.lock`)).toBe(false);
    const again = takeImportLock(database);
    expect(again).not.toBeNull();
    again!();
  });

  it("takes over a lock left by a process that is gone, not one held by a live process", () => {
    writeFileSync(`${database}-import.lock`, "2147483646");
    const release = takeImportLock(database);
    expect(release).not.toBeNull();
    release!();
    writeFileSync(`${database}-import.lock`, String(process.ppid));
    expect(takeImportLock(database)).toBeNull();
  });
});
