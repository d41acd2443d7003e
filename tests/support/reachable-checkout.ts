import { execFileSync } from "node:child_process";
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestUser } from "./storage-faults";

// Tests that run the CLI or the server as an unprivileged user (storage-faults.ts) need that user to
// reach the code. A checkout inside a folder only its owner may enter (a home folder of mode 0700)
// is out of their reach: the code they need (lib/, db/, node_modules/, the configs) is then
// hard-linked (`cp -al`: no data copied, a second or two) into a temporary folder they can enter.

const NEEDED = ["lib", "db", "node_modules", "package.json", "tsconfig.json"];

/** Whether every folder from / down to `path` lets others through (the x bit for "other"). */
function othersCanReach(path: string): boolean {
  for (let folder = path; ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return false;
    if (dirname(folder) === folder) return true;
  }
}

let linked: string | undefined;

/**
 * The folder to run the code from as `user` (the working directory of the process): this checkout
 * when `user` can reach it (or is undefined: this user), else a hard-linked copy of what it needs.
 * Throws, saying why, when neither works.
 */
export function checkoutFor(user: TestUser | undefined): string {
  const checkout = process.cwd();
  if (!user || othersCanReach(checkout)) return checkout;
  if (linked) return linked;
  const folder = mkdtempSync(join(tmpdir(), "waitlist-checkout-"));
  try {
    chmodSync(folder, 0o755);
    if (!othersCanReach(folder)) throw new Error(`the temporary folder ${folder} is out of their reach too (set TMPDIR to a folder every user may enter)`);
    execFileSync("cp", ["-al", ...NEEDED.map((name) => join(checkout, name)), folder], { stdio: "pipe" });
    accessSync(join(folder, "lib", "cli", "main.ts"), constants.R_OK);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`The checkout ${checkout} is inside a folder user ${user.uid} cannot enter, and its code could not be hard-linked into a temporary folder they can (${why}).`, { cause: error });
  }
  linked = folder;
  return folder;
}

/** Removes the hard-linked copy, if one was made (a test file's afterAll). */
export function removeLinkedCheckout(): void {
  if (linked) rmSync(linked, { recursive: true, force: true });
  linked = undefined;
}
