import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

// signups invite|reject|withdraw|restore (the export's filters, --limit, --dry-run, --json) and
// signups complete --email, against a real database file; and export → import keeps the statuses.

let cli: CliSandbox;
let waitlist: string;

const statuses = () => Object.fromEntries(cli.rows("signups").filter((row) => row.waitlist_id === waitlist).map((row) => [String(row.email), String(row.status)]));
const events = () => cli.rows("audit_log").filter((row) => String(row.action).startsWith("signups.") && row.action !== "signups.import").length;

beforeAll(() => {
  cli = cliSandbox();
  waitlist = cli.json<{ id: string }>("waitlists", "create", "--name", "Drain", "--website", "https://example.com").id;
  const lines = Array.from({ length: 6 }, (_, index) => JSON.stringify({ email: `p${index}@acme.com`, verified: index % 2 === 0, created_at: `2026-10-0${index + 1}` }));
  cli.json("signups", "import", "--waitlist", waitlist, cli.file("six.ndjson", `${lines.join("\n")}\n`));
});
afterAll(() => cli.remove());

describe("signups invite|reject|withdraw|restore|complete", () => {
  it("--dry-run lists who would change and changes nothing", () => {
    expect(cli.json("signups", "invite", "--waitlist", waitlist, "--verified", "true", "--limit", "2", "--dry-run")).toEqual({ would_invite: 2, emails: ["p0@acme.com", "p2@acme.com"] });
    const human = cli.run("signups", "invite", "--waitlist", waitlist, "--limit", "1", "--dry-run");
    expect(human.stdout).toBe("Would invite 1 signup:\np0@acme.com\n");
    expect(Object.values(statuses())).toEqual(Array(6).fill("waiting"));
    expect(events()).toBe(0);
  });

  it("invites the oldest matching waiting signups, then the next ones", () => {
    expect(cli.json("signups", "invite", "--waitlist", waitlist, "--verified", "true", "--limit", "2")).toEqual({ invited: 2 });
    expect(cli.run("signups", "invite", "--waitlist", waitlist, "--verified", "true", "--limit", "2").stdout).toBe("Invited 1 signup.\n");
    expect(statuses()).toMatchObject({ "p0@acme.com": "invited", "p2@acme.com": "invited", "p4@acme.com": "invited", "p1@acme.com": "waiting" });
    expect(events()).toBe(2);
  });

  it("rejects, restores and withdraws with the export's filters", () => {
    expect(cli.json("signups", "reject", "--waitlist", waitlist, "--created-until", "2026-10-03")).toEqual({ rejected: 1 });
    expect(statuses()["p1@acme.com"]).toBe("rejected");
    expect(cli.json("signups", "restore", "--waitlist", waitlist, "--status", "rejected")).toEqual({ restored: 1 });
    expect(cli.json("signups", "withdraw", "--waitlist", waitlist, "--email", "P4@acme.com")).toEqual({ withdrawn: 1 });
    expect(statuses()).toMatchObject({ "p1@acme.com": "waiting", "p4@acme.com": "waiting" });
  });

  it("completes one invited address, and refuses one in another state naming both states", () => {
    expect(cli.json("signups", "complete", "--waitlist", waitlist, "--email", "p0@ACME.com")).toEqual({ completed: 1 });
    expect(expectOneLineError(cli.run("signups", "complete", "--waitlist", waitlist, "--email", "p1@acme.com"))).toBe(
      "error: cannot complete a signup that is waiting: only an invited signup can become completed",
    );
    expect(expectOneLineError(cli.run("signups", "complete", "--waitlist", waitlist, "--email", "nobody@acme.com"))).toMatch(/has none of the address/);
    expect(expectOneLineError(cli.run("signups", "invite", "--waitlist", waitlist, "--limit", "0"))).toMatch(/^error: invalid --limit/);
    expect(expectOneLineError(cli.run("signups", "invite", "--waitlist", waitlist, "--status", "gone"))).toMatch(/^error: invalid --status: must be one or more of waiting, invited, completed, rejected/);
    expect(statuses()).toMatchObject({ "p0@acme.com": "completed", "p1@acme.com": "waiting" });
  });

  it("the export's --status filter, and export → import keeps status and status_changed_at (CSV and NDJSON)", () => {
    const invited = cli.run("signups", "export", "--waitlist", waitlist, "--status", "invited,completed");
    expect(invited.stdout.split("\r\n").slice(1, -1).map((line) => line.split(",")[0])).toEqual(["p0@acme.com", "p2@acme.com"]);
    for (const format of ["csv", "ndjson"]) {
      const output = join(cli.dir, `all.${format}`);
      cli.json("signups", "export", "--waitlist", waitlist, "--format", format, "--output", output);
      const copy = cli.json<{ id: string }>("waitlists", "create", "--name", `Copy ${format}`, "--website", "https://example.com").id;
      expect(cli.json("signups", "import", "--waitlist", copy, output)).toMatchObject({ imported: 6 });
      const pick = (id: string) =>
        cli
          .rows("signups")
          .filter((row) => row.waitlist_id === id)
          .map((row) => [row.email, row.status, row.status_changed_at]);
      expect(pick(copy), format).toEqual(pick(waitlist));
      expect(readFileSync(output, "utf8")).toContain("completed");
    }
  });
});
