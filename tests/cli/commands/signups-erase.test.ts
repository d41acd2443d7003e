import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

let cli: CliSandbox;
const ids: Record<string, string> = {};

beforeAll(() => {
  cli = cliSandbox();
  const lists: Record<string, string> = {
    Alpha: '{"email":"Jane.Doe@Acme.com"}\n{"email":"janet.doe@acme.com"}\n',
    Beta: '{"email":"jane.doe@acme.com"}\n{"email":"bob@acme.com"}\n',
    Gamma: '{"email":"JANE.DOE@ACME.COM"}\n',
  };
  for (const [name, ndjson] of Object.entries(lists)) {
    ids[name] = cli.json<{ id: string }>("waitlists", "create", "--name", name, "--website", "https://example.com").id;
    cli.json("signups", "import", "--waitlist", ids[name]!, cli.file(`${name}.ndjson`, ndjson));
  }
});
afterAll(() => cli.remove());

const emails = () => cli.rows("signups").map((row) => `${String(row.email)}`);

function eraseAudit(): Record<string, unknown>[] {
  const db = new Database(cli.databasePath, { readonly: true });
  try {
    return db.prepare("SELECT actor, action, target, summary FROM audit_log WHERE action = 'signup.erase' ORDER BY id").all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe("signups erase", () => {
  it("refuses bad input and an unknown waitlist with one line, erasing nothing", () => {
    const before = emails();
    expect(expectOneLineError(cli.run("signups", "erase", "--email", " "))).toMatch(/^error: invalid --email/);
    expect(expectOneLineError(cli.run("signups", "erase", "--email", "jane.doe@acme.com", "--waitlist", "nope"))).toBe('error: invalid --waitlist: must be a waitlist id (got "nope")');
    expect(expectOneLineError(cli.run("signups", "erase", "--email", "jane.doe@acme.com", "--waitlist", "00000000-0000-4000-8000-000000000000"))).toBe(
      "error: No waitlist has the id 00000000-0000-4000-8000-000000000000.",
    );
    expect(cli.run("signups", "erase").status).toBe(2);
    expect(emails()).toEqual(before);
    expect(eraseAudit()).toEqual([]);
  });

  it("erases the address from one waitlist with --waitlist", () => {
    expect(cli.json("signups", "erase", "--email", "jane.doe@acme.com", "--waitlist", ids.Gamma!)).toEqual({ erased: 1, off_disk: true });
    expect(emails()).toEqual(["Jane.Doe@Acme.com", "janet.doe@acme.com", "jane.doe@acme.com", "bob@acme.com"]);
  });

  it("erases the address in any case from every waitlist, recording only a hash of it", () => {
    const human = cli.run("signups", "erase", "--email", "JANE.doe@acme.com");
    expect(human.status).toBe(0);
    expect(human.stdout).toBe("Erased 2 signups from 2 waitlists.\n");
    expect(emails()).toEqual(["janet.doe@acme.com", "bob@acme.com"]);
    expect(cli.json("signups", "find", "--email", "jane.doe@acme.com")).toEqual({ signups: [], truncated: false });
    expect(cli.json("signups", "erase", "--email", "jane.doe@acme.com")).toEqual({ erased: 0, off_disk: true });

    const rows = eraseAudit();
    expect(rows.map((row) => row.summary)).toEqual(["erased 1 signup from 1 waitlist", "erased 2 signups from 2 waitlists", "erased 0 signups from 0 waitlists"]);
    expect(new Set(rows.map((row) => row.target)).size).toBe(1);
    expect(String(rows[0]!.target)).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows).toLowerCase()).not.toContain("jane");
  });
});
