import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

let cli: CliSandbox;
const ids: Record<string, string> = {};

interface Found {
  email: string;
  exact: boolean;
  waitlist_id: string;
  waitlist_name: string;
  signup_id: string;
  created_at: string;
}

beforeAll(() => {
  cli = cliSandbox();
  const lists: Record<string, string> = {
    Beta: '{"email":"Jane.Doe@Acme.com","created_at":"2025-01-02T03:04:05.678Z"}\n{"email":"bob@acme.com"}\n{"email":"mary.jane.doe@acme.com"}\n',
    Alpha: '{"email":"jane.doe@acme.com","created_at":"2025-02-01"}\n{"email":"jane.doer@globex.com"}\n',
  };
  for (const [name, ndjson] of Object.entries(lists)) {
    ids[name] = cli.json<{ id: string }>("waitlists", "create", "--name", name, "--website", "https://example.com").id;
    cli.json("signups", "import", "--waitlist", ids[name]!, cli.file(`${name}.ndjson`, ndjson));
  }
});
afterAll(() => cli.remove());

function find(...args: string[]) {
  return cli.json<{ signups: Found[]; truncated: boolean }>("signups", "find", ...args);
}

function signupId(email: string): string {
  return String(cli.rows("signups").find((row) => row.email === email)!.id);
}

describe("signups find", () => {
  it("lists every waitlist holding the address, in any case, before the addresses that contain it", () => {
    expect(find("--email", "JANE.DOE@acme.COM")).toEqual({
      signups: [
        { email: "jane.doe@acme.com", exact: true, waitlist_id: ids.Alpha, waitlist_name: "Alpha", signup_id: signupId("jane.doe@acme.com"), created_at: "2025-02-01T00:00:00.000Z" },
        { email: "Jane.Doe@Acme.com", exact: true, waitlist_id: ids.Beta, waitlist_name: "Beta", signup_id: signupId("Jane.Doe@Acme.com"), created_at: "2025-01-02T03:04:05.678Z" },
        { email: "mary.jane.doe@acme.com", exact: false, waitlist_id: ids.Beta, waitlist_name: "Beta", signup_id: signupId("mary.jane.doe@acme.com"), created_at: expect.any(String) },
      ],
      truncated: false,
    });
  });

  it("finds a part of an address across waitlists, sorted by address, and says when --limit cut the list", () => {
    expect(find("--email", "@ACME.").signups.map((found) => `${found.email} ${found.waitlist_name}`)).toEqual([
      "bob@acme.com Beta",
      "jane.doe@acme.com Alpha",
      "Jane.Doe@Acme.com Beta",
      "mary.jane.doe@acme.com Beta",
    ]);
    expect(find("--email", "jane.doe", "--limit", "2")).toMatchObject({ truncated: true, signups: [{}, {}] });
  });

  it("prints a table by default", () => {
    const text = cli.run("signups", "find", "--email", "jane.doer@globex.com");
    expect(text.status).toBe(0);
    expect(text.stdout.split("\n")).toEqual([
      expect.stringMatching(/^EMAIL {17}WAITLIST {2}WAITLIST ID {27}SIGNUP ID {2}CREATED$/),
      expect.stringMatching(new RegExp(`^jane\\.doer@globex\\.com  Alpha {5}${ids.Alpha}  ${signupId("jane.doer@globex.com")} +\\d{4}-\\d\\d-\\d\\dT`)),
      "",
    ]);
    const limited = cli.run("signups", "find", "--email", "acme", "--limit", "1").stdout;
    expect(limited.trimEnd().split("\n").at(-1)).toBe("Only the first 1 are shown: give more of the address, or a higher --limit.");
    expect(cli.run("signups", "find", "--email", "nobody").stdout).toBe('No signup has an address containing "nobody".\n');
  });

  it("refuses a text under 3 characters and a bad --limit with one line", () => {
    expect(expectOneLineError(cli.run("signups", "find", "--email", " a@ "))).toBe('error: invalid --email: must be a whole address or a part of one, 3 to 254 characters (got " a@ ")');
    expect(expectOneLineError(cli.run("signups", "find", "--email", "acme", "--limit", "0"))).toBe('error: invalid --limit: must be a whole number from 1 to 1000 (got "0")');
    expect(cli.run("signups", "find").status).toBe(2);
  });
});
