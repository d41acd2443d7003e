import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

// waitlists update --disposable and signups review approve|discount (lib/cli/commands/signups-review.ts)
// against a real database file: the setting audited, the decisions on flagged signups, bad input.

let cli: CliSandbox;
let waitlist: string;

const referralStates = () => {
  const db = openDatabase(cli.databasePath);
  try {
    return db.$client.prepare("SELECT s.email, r.state FROM referrals r JOIN signups s ON s.id = r.signup_id ORDER BY s.id").all();
  } finally {
    db.$client.close();
  }
};

beforeAll(async () => {
  cli = cliSandbox();
  waitlist = cli.json<{ id: string }>("waitlists", "create", "--name", "Guarded", "--website", "https://example.com").id;
  cli.json("waitlists", "update", waitlist, "--joining", "open");
  const db = openDatabase(cli.databasePath);
  try {
    const ada = (await joinWaitlist({ waitlistId: waitlist, email: "ada@example.com", customInputs: [] }, db)).signup;
    for (const email of ["one@mailinator.com", "two@yopmail.com"]) await joinWaitlist({ waitlistId: waitlist, email, customInputs: [], referralCode: ada.referral_code }, db);
  } finally {
    db.$client.close();
  }
});
afterAll(() => cli.remove());

describe("waitlists update --disposable", () => {
  it("sets what joining does with a disposable address, audited; an unknown word is one line and changes nothing", () => {
    expect(cli.json<{ joining: { disposable: string } }>("waitlists", "update", waitlist, "--disposable", "refuse").joining.disposable).toBe("refuse");
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.join_settings").map((row) => row.summary)).toContain("disposable addresses: refuse");
    expect(expectOneLineError(cli.run("waitlists", "update", waitlist, "--disposable", "sometimes"))).toBe('error: invalid --disposable: must be refuse, flag, allow (got "sometimes")');
    expect(cli.json<{ joining: { disposable: string } }>("waitlists", "joining", waitlist).joining.disposable).toBe("refuse");
    cli.json("waitlists", "update", waitlist, "--disposable", "flag");
  });
});

describe("signups review approve|discount", () => {
  it("lists the flagged signups with export --flag, approves one and discounts the other, each audited", () => {
    expect(referralStates()).toEqual([
      { email: "one@mailinator.com", state: "flagged" },
      { email: "two@yopmail.com", state: "flagged" },
    ]);
    const exported = cli.run("signups", "export", "--waitlist", waitlist, "--flag", "disposable", "--format", "ndjson");
    expect(exported.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { email: string }).email)).toEqual(["one@mailinator.com", "two@yopmail.com"]);

    expect(cli.json("signups", "review", "approve", "--waitlist", waitlist, "--email", "ONE@mailinator.com", "--email", "ada@example.com")).toMatchObject({ approved: 1, skipped: 1 });
    expect(cli.run("signups", "review", "discount", "--waitlist", waitlist, "--email", "two@yopmail.com").stdout).toBe("Discounted 1 flagged signup.\n");
    expect(referralStates()).toEqual([
      { email: "one@mailinator.com", state: "counted" },
      { email: "two@yopmail.com", state: "discounted" },
    ]);
    expect(cli.rows("audit_log").filter((row) => String(row.action).startsWith("signups.flag_")).map((row) => [row.action, row.summary])).toEqual([
      ["signups.flag_approve", "approved 1 flagged signup"],
      ["signups.flag_discount", "discounted 1 flagged signup"],
    ]);
  });

  it("refuses what it cannot decide with one line, changing nothing", () => {
    expect(expectOneLineError(cli.run("signups", "review", "approve", "--waitlist", waitlist, "--email", "two@yopmail.com"))).toBe(
      "error: None of these signups is waiting for review (no flag, or one decided before): nothing was approved.",
    );
    expect(expectOneLineError(cli.run("signups", "review", "approve", "--waitlist", waitlist, "--email", "nobody@example.com"))).toBe("error: None of these signups is on this waitlist.");
    expect(expectOneLineError(cli.run("signups", "export", "--waitlist", waitlist, "--flag", "spam"))).toMatch(/flag/);
    expect(referralStates()).toEqual([
      { email: "one@mailinator.com", state: "counted" },
      { email: "two@yopmail.com", state: "discounted" },
    ]);
  });
});
