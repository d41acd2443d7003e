import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { inTurn } from "@/tests/support/in-turn";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

describe("waitlists create, update, delete", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  function auditRows(): Record<string, unknown>[] {
    const db = new Database(cli.databasePath, { readonly: true });
    try {
      return db.prepare("SELECT actor, action, target, summary FROM audit_log ORDER BY id").all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }

  function create(name: string, ...extra: string[]) {
    return cli.json<{ id: string; name: string; website: string }>("waitlists", "create", "--name", name, "--website", "https://example.com", ...extra);
  }

  describe("waitlists create with a name in use", () => {
    it("refuses it (in any case) unless --allow-duplicate-name, and records each creation", () => {
      const first = create("Acme Beta");
      const before = cli.rows("waitlists");
      const refused = cli.run("waitlists", "create", "--name", "acme BETA", "--website", "https://example.com", "--json");
      expect(refused.status).toBe(1);
      expect(expectOneLineError(refused)).toBe(`error: a waitlist named "acme BETA" already exists (${first.id}): pass --allow-duplicate-name to use the name again`);
      expect(cli.rows("waitlists")).toEqual(before);
      const second = create("acme BETA", "--allow-duplicate-name");
      expect(second.name).toBe("acme BETA");
      expect(auditRows().filter((row) => row.action === "waitlist.create")).toEqual([
        { actor: "cli", action: "waitlist.create", target: first.id, summary: 'created "Acme Beta" (https://example.com/)' },
        { actor: "cli", action: "waitlist.create", target: second.id, summary: 'created "acme BETA" (https://example.com/)' },
      ]);
    });
  });

  describe("waitlists update", () => {
    it("renames and changes the website, printing the waitlist", () => {
      const { id } = create("Before");
      expect(cli.json("waitlists", "update", id, "--name", "After", "--website", "https://after.example/x")).toEqual({ id, name: "After", website: "https://after.example/x" });
      expect(cli.rows("waitlists").find((row) => row.id === id)).toMatchObject({ name: "After", website: "https://after.example/x" });
      const human = cli.run("waitlists", "update", id, "--website", "https://after.example");
      expect(human.stdout).toBe(`Updated waitlist ${id} (After, https://after.example/).\n`);
      expect(auditRows().filter((row) => row.target === id).map((row) => row.summary)).toEqual([
        'created "Before" (https://example.com/)',
        'renamed "Before" to "After"; website https://example.com/ → https://after.example/x',
        "website https://after.example/x → https://after.example/",
      ]);
    });

    it("refuses nothing to change, bad values, a name in use and unknown ids with one line, changing nothing", () => {
      const { id } = create("Unchanged");
      create("Occupied");
      const before = cli.rows("waitlists");
      expect(expectOneLineError(cli.run("waitlists", "update", id))).toBe("error: invalid input: give a new name, a new website, or both");
      expect(expectOneLineError(cli.run("waitlists", "update", id, "--website", "ftp://x.example"))).toBe('error: invalid --website: must be an absolute http or https URL (got "ftp://x.example")');
      expect(expectOneLineError(cli.run("waitlists", "update", id, "--name", " "))).toMatch(/^error: invalid --name/);
      expect(expectOneLineError(cli.run("waitlists", "update", id, "--name", "occupied"))).toMatch(/^error: a waitlist named "occupied" already exists .*--allow-duplicate-name/);
      expect(expectOneLineError(cli.run("waitlists", "update", "00000000-0000-4000-8000-000000000000", "--name", "X"))).toBe(
        "error: No waitlist has the id 00000000-0000-4000-8000-000000000000.",
      );
      expect(cli.rows("waitlists")).toEqual(before);
      expect(cli.json("waitlists", "update", id, "--name", "occupied", "--allow-duplicate-name")).toMatchObject({ name: "occupied" });
    });
  });

  describe("waitlists delete", () => {
    it("needs --confirm with the exact name, then deletes the waitlist and its signups", () => {
      const { id } = create("Doomed");
      cli.json("signups", "import", "--waitlist", id, cli.file("doomed.ndjson", '{"email":"a@example.com"}\n{"email":"b@example.com"}\n'));
      const before = { waitlists: cli.rows("waitlists"), signups: cli.rows("signups") };

      const usage = cli.run("waitlists", "delete", id);
      expect(usage.status).toBe(2);
      expect(expectOneLineError(usage)).toMatch(/^error: required option '--confirm <name>' not specified/);
      expect(expectOneLineError(cli.run("waitlists", "delete", id, "--confirm", "doomed"))).toBe(`error: the confirmation must be the waitlist's name exactly ("Doomed")`);
      expect({ waitlists: cli.rows("waitlists"), signups: cli.rows("signups") }).toEqual(before);

      expect(cli.json("waitlists", "delete", id, "--confirm", "Doomed")).toEqual({ id, deleted: true, signups: 2, off_disk: true });
      expect(cli.rows("waitlists").map((row) => row.id)).not.toContain(id);
      expect(cli.rows("signups").filter((row) => row.waitlist_id === id)).toEqual([]);
      expect(auditRows().at(-1)).toEqual({ actor: "cli", action: "waitlist.delete", target: id, summary: 'deleted "Doomed" and its 2 signups' });
      expect(expectOneLineError(cli.run("waitlists", "delete", id, "--confirm", "Doomed"))).toBe(`error: No waitlist has the id ${id}.`);
    });
  });

  it("documents the new commands and options in --help", () => {
    const expectations: [string[], string[]][] = [
      [["waitlists", "create"], ["--allow-duplicate-name"]],
      [["waitlists", "update"], ["<id>", "--name", "--website", "--allow-duplicate-name", "--json"]],
      [["waitlists", "delete"], ["<id>", "--confirm <name>", "--json"]],
      [["signups", "erase"], ["--email <address>", "--waitlist <id>", "--json"]],
    ];
    for (const [command, options] of expectations) {
      const help = cli.run(...command, "--help");
      expect(help.status).toBe(0);
      for (const option of options) expect(help.stdout, `${command.join(" ")} ${option}`).toContain(option);
    }
  });
});

describe("waitlists create and list", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());


  describe("waitlists", () => {
    it("creates a waitlist and lists it", () => {
      const created = cli.json("waitlists", "create", "--name", "Beta", "--website", "https://example.com/beta");
      expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Beta", website: "https://example.com/beta" });
      const listed = cli.json<{ waitlists: Record<string, unknown>[] }>("waitlists", "list");
      expect(listed.waitlists).toEqual([{ ...created, created_at: expect.any(String), signups: 0 }]);
      const human = cli.run("waitlists", "list");
      expect(human.status).toBe(0);
      expect(human.stdout).toContain("Beta");
    });

    it("refuses a bad website with one line and creates nothing", () => {
      const before = cli.rows("waitlists");
      const line = expectOneLineError(cli.run("waitlists", "create", "--name", "Bad", "--website", "ftp://example.com", "--json"));
      expect(line).toBe('error: invalid --website: must be an absolute http or https URL (got "ftp://example.com")');
      expect(expectOneLineError(cli.run("waitlists", "create", "--name", " ", "--website", "https://e.com"))).toMatch(/^error: invalid --name/);
      expect(cli.rows("waitlists")).toEqual(before);
    });
  });
});

describe("waitlists website", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("waitlists create stores the website in the WHATWG serialization: punycode host, spaces and | percent-encoded", () => {
    const created = cli.json<{ id: string; website: string }>("waitlists", "create", "--name", "IDN", "--website", "https://例え.example/päth a|b");
    expect(created.website).toBe("https://xn--r8jz45g.example/p%C3%A4th%20a%7Cb");
    expect(cli.rows("waitlists")).toEqual([expect.objectContaining({ id: created.id, website: created.website })]);
    const listed = cli.json<{ waitlists: { website: string }[] }>("waitlists", "list");
    expect(listed.waitlists.map((waitlist) => waitlist.website)).toEqual([created.website]);
  });
});

describe("waitlists update: join settings, and waitlists joining", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("opens a list with a form, verification, origins and the challenge off; shows them; audits the change", () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Joinable", "--website", "https://example.com");
    expect(cli.json("waitlists", "joining", id)).toEqual({
      id,
      joining: { joining: "closed", verification: false, fields: [], successMessage: "", embedOrigins: [], challenge: true, headline: "", description: "", accentColor: "", leaderboard: false, disposable: "flag" },
    });
    const updated = cli.json<{ id: string; name: string; joining: unknown }>(
      "waitlists", "update", id,
      "--joining", "open", "--verification", "on", "--join-field", "Company*", "--join-field", "Plan=Free|Pro",
      "--success-message", "See you soon", "--embed-origin", "https://acme.example", "--challenge", "off",
    );
    expect(updated).toEqual({
      id,
      name: "Joinable",
      website: "https://example.com/",
      joining: {
        joining: "open",
        verification: true,
        fields: [
          { label: "Company", type: "text", required: true },
          { label: "Plan", type: "choice", options: ["Free", "Pro"], required: false },
        ],
        successMessage: "See you soon",
        embedOrigins: ["https://acme.example"],
        challenge: false,
        headline: "",
        description: "",
        accentColor: "",
        leaderboard: false,
        disposable: "flag",
      },
    });
    expect(cli.rows("join_settings")).toEqual([expect.objectContaining({ waitlist_id: id, joining: "open", verification: 1, challenge: 0 })]);
    const human = cli.run("waitlists", "joining", id);
    expect(human.stdout).toContain("Joining: open; verification on; challenge off; disposable addresses: flag.\nForm fields: Company*, Plan=Free|Pro.\nEmbed origins: https://acme.example.");
    expect(cli.json<{ joining: { fields: unknown[]; embedOrigins: string[] } }>("waitlists", "update", id, "--clear-join-fields", "--clear-embed-origins").joining).toMatchObject({ fields: [], embedOrigins: [] });
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.join_settings").map((row) => row.summary)).toEqual([
      "joining open; verification on; 2 form fields; success message changed; embed origins: https://acme.example; challenge off",
      "0 form fields; embed origins: none",
    ]);
  });

  it("refuses bad join options with one line, changing nothing", () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Strict", "--website", "https://example.com");
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--joining", "ajar"))).toBe('error: invalid --joining: must be open or closed (got "ajar")');
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--verification", "yes"))).toBe('error: invalid --verification: must be on or off (got "yes")');
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--embed-origin", "https://a.example/path"))).toMatch(/^error: Invalid join settings: embedOrigins.0: must be an origin/);
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--join-field", "Plan="))).toMatch(/^error: Invalid join settings: fields.0.options.0: must not be empty/);
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--join-field", "A", "--clear-join-fields"))).toBe("error: give --join-field or --clear-join-fields, not both");
    expect(expectOneLineError(cli.run("waitlists", "update", "00000000-0000-4000-8000-000000000000", "--joining", "open"))).toBe("error: No waitlist has the id 00000000-0000-4000-8000-000000000000.");
    expect(cli.rows("join_settings").filter((row) => row.waitlist_id === id)).toEqual([]);
  });

  it("sets the brand (headline, description, accent colour, logo) and the leaderboard; refuses a bad colour or file, changing nothing", () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Branded", "--website", "https://example.com");
    const updated = cli.json<{ joining: Record<string, unknown> }>(
      "waitlists", "update", id,
      "--headline", "Acme is coming", "--description", "**Fast**\\n\\nSee [us](https://acme.example)", "--accent-color", "#0F766E", "--leaderboard", "on", "--logo", "tests/support/images/logo.png",
    );
    expect(updated.joining).toMatchObject({ headline: "Acme is coming", description: "**Fast**\n\nSee [us](https://acme.example)", accentColor: "#0f766e", leaderboard: true });
    expect(cli.rows("join_logos")).toEqual([expect.objectContaining({ waitlist_id: id, content_type: "image/png" })]);
    expect(cli.run("waitlists", "joining", id).stdout).toContain('Brand: headline "Acme is coming"; accent colour #0f766e; description 40 characters.\nLeaderboard: on.');
    const before = { settings: cli.rows("join_settings"), logos: cli.rows("join_logos"), audit: cli.rows("audit_log").length };
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--accent-color", "#7dd3fc"))).toMatch(/^error: Invalid join settings: accentColor: the accent colour #7dd3fc has a contrast of 1\.\d\d:1 .* WCAG AA needs 4\.5:1/);
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--accent-color", "teal"))).toMatch(/^error: Invalid join settings: accentColor: must be a colour such as #1d4ed8/);
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--logo", "package.json", "--headline", "Other"))).toBe("error: Invalid logo: the file is not a PNG, JPEG or WebP image.");
    expect(expectOneLineError(cli.run("waitlists", "update", id, "--headline", "x".repeat(121)))).toMatch(/^error: Invalid join settings: headline: /);
    expect({ settings: cli.rows("join_settings"), logos: cli.rows("join_logos"), audit: cli.rows("audit_log").length }).toEqual(before);
    expect(cli.json("waitlists", "update", id, "--clear-logo")).toMatchObject({ id });
    expect(cli.rows("join_logos")).toEqual([]);
    expect(cli.rows("audit_log").filter((row) => row.target === id && row.action === "waitlist.join_settings").map((row) => row.summary)).toEqual([
      "headline changed; description changed; accent colour #0f766e; leaderboard on",
      expect.stringMatching(/^logo set \(image\/png, 3 KB\)$/),
      "logo removed",
    ]);
  });
});

describe("waitlists update --ranking, waitlists ranking --preview, signups export --sort position", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("previews a rule without changing anything, applies it (audited), refuses a bad one, and exports the line", async () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Ranked", "--website", "https://example.com");
    cli.json("waitlists", "update", id, "--joining", "open");
    const db = openDatabase(cli.databasePath);
    try {
      const people = await inTurn(["a", "b", "c", "d"], async (name) => (await joinWaitlist({ waitlistId: id, email: `${name}@example.com`, customInputs: [] }, db)).signup);
      await joinWaitlist({ waitlistId: id, email: "friend@example.com", customInputs: [], referralCode: people[3]!.referral_code }, db);
    } finally {
      db.$client.close();
    }
    expect(cli.json("waitlists", "ranking", id)).toEqual({ id, ranking: "first-come" });
    expect(cli.json("waitlists", "ranking", id, "--preview", "referrals:2")).toMatchObject({
      ranking: "first-come",
      preview: "referrals:2",
      moves: expect.arrayContaining([expect.objectContaining({ email: "d@example.com", before: 4, after: 2 })]),
    });
    expect(cli.json("waitlists", "ranking", id)).toEqual({ id, ranking: "first-come" });

    for (const bad of ["referrals:0", "points", "fastest"]) {
      const refused = cli.run("waitlists", "update", id, "--ranking", bad, "--name", "Renamed");
      expect(refused.status).toBe(1);
      expect(expectOneLineError(refused)).toMatch(/^error: invalid --ranking: must be first-come, referrals:<N>/);
    }
    expect(cli.rows("waitlists")[0]).toMatchObject({ name: "Ranked" });

    expect(cli.json("waitlists", "update", id, "--ranking", "referrals:2")).toMatchObject({ id, ranking: "referrals:2" });
    const line = cli.run("signups", "export", "--waitlist", id, "--format", "ndjson", "--sort", "position");
    expect(line.stdout.trim().split("\n").map((text) => (JSON.parse(text) as { email: string }).email)).toEqual(["a", "d", "b", "c", "friend"].map((name) => `${name}@example.com`));
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.ranking").map((row) => row.summary)).toEqual(["ranking referrals:2 (was first-come)"]);
  });
});

describe("waitlists milestones", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("shows, sets (reached at once by those past a step), refuses a bad line changing nothing, clears; signups export --milestone", async () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Milestoned", "--website", "https://example.com");
    cli.json("waitlists", "update", id, "--joining", "open");
    const db = openDatabase(cli.databasePath);
    try {
      const a = (await joinWaitlist({ waitlistId: id, email: "a@example.com", customInputs: [] }, db)).signup;
      await joinWaitlist({ waitlistId: id, email: "b@example.com", customInputs: [] }, db);
      await joinWaitlist({ waitlistId: id, email: "friend@example.com", customInputs: [], referralCode: a.referral_code }, db);
    } finally {
      db.$client.close();
    }
    expect(cli.json("waitlists", "milestones", id)).toEqual({ id, milestones: [] });
    expect(cli.json("waitlists", "milestones", id, "--set", "1:Early bird:1", "--set", "5:Early access:0:See you soon, {{email}}")).toEqual({
      id,
      milestones: [
        { referrals: 1, label: "Early bird", places: 1, message: "" },
        { referrals: 5, label: "Early access", places: 0, message: "See you soon, {{email}}" },
      ],
      reached_now: 1,
    });
    const text = cli.run("waitlists", "milestones", id);
    expect(text.stdout).toContain("Early bird: 1 counted referral, moves up 1 place  (1:Early bird:1)");

    for (const [bad, reason] of [
      ["0:Zero", /needs a number of referrals from 1 to 10,000/],
      ["2:A,B", /comma/],
      ["2:X:1:{{password}}", /unknown placeholder/],
    ] as const) {
      const refused = cli.run("waitlists", "milestones", id, "--set", bad);
      expect(refused.status).toBe(1);
      expect(expectOneLineError(refused)).toMatch(/^error: invalid --set: /);
      expect(expectOneLineError(refused)).toMatch(reason);
    }
    expect(cli.json<{ milestones: unknown[] }>("waitlists", "milestones", id).milestones).toHaveLength(2);

    const reached = cli.run("signups", "export", "--waitlist", id, "--format", "ndjson", "--milestone", "EARLY BIRD");
    expect(reached.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { email: string }).email)).toEqual(["a@example.com"]);
    // a@ moved up one place: the line is a, then b.
    const line = cli.run("signups", "export", "--waitlist", id, "--format", "ndjson", "--sort", "position");
    expect(line.stdout.trim().split("\n").map((text) => (JSON.parse(text) as { email: string }).email)).toEqual(["a@example.com", "b@example.com", "friend@example.com"]);

    expect(cli.json("waitlists", "milestones", id, "--clear")).toEqual({ id, milestones: [], reached_now: 0 });
    expect(cli.run("signups", "export", "--waitlist", id, "--format", "ndjson", "--milestone", "Early bird").stdout.trim()).toBe("");
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.milestones").map((row) => row.summary)).toEqual([
      "milestones 1:Early bird:1 | 5:Early access:0:See you soon, {{email}} (1 reached at once)",
      "no milestones",
    ]);
  });
});

describe("waitlists update --invite-url --invite-expiry", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("sets the invite links' URL and lifetime (audited), refuses bad values changing nothing, and removes the URL with \"\"", () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Invites", "--website", "https://example.com");
    expect(cli.json("waitlists", "update", id, "--invite-url", "https://app.example/signup?plan=pro", "--invite-expiry", "7")).toMatchObject({
      id,
      invite_url: "https://app.example/signup?plan=pro",
      invite_expiry_days: 7,
    });
    expect(cli.run("waitlists", "update", id, "--invite-expiry", "30").stdout).toContain("Invite links: https://app.example/signup?plan=pro with ?invite=<token>, good for 30 days after the invitation.");
    expect(cli.json("emails", "show", id)).toMatchObject({ invite_url: "https://app.example/signup?plan=pro", invite_expiry_days: 30, enabled: false });

    const before = cli.rows("invitation_emails");
    for (const [option, value, message] of [
      ["--invite-url", "ftp://app.example", "error: invalid --invite-url: must be an absolute http or https URL (got \"ftp://app.example\")"],
      ["--invite-expiry", "0", "error: invalid --invite-expiry: must be at least 1 day"],
      ["--invite-expiry", "366", "error: invalid --invite-expiry: must be at most 365 days"],
      ["--invite-expiry", "two", "error: invalid --invite-expiry: must be a whole number of days from 1 to 365 (got \"two\")"],
    ] as const) {
      const refused = cli.run("waitlists", "update", id, option, value, "--name", "Renamed");
      expect(expectOneLineError(refused)).toBe(message);
    }
    expect(cli.rows("invitation_emails")).toEqual(before);
    expect(cli.rows("waitlists").map((row) => row.name)).toEqual(["Invites"]);

    expect(cli.json("waitlists", "update", id, "--invite-url", "")).toMatchObject({ invite_url: null, invite_expiry_days: 30 });
    expect(cli.run("emails", "show", id).stdout).toContain("Invite links: no sign-up URL yet ({{invite.url}} is empty; set --invite-url), good for 30 days after the invitation.");
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.invitation_email").map((row) => row.summary)).toEqual([
      "invite URL https://app.example/signup?plan=pro; invite links good for 7 days",
      "invite links good for 30 days",
      "invite URL removed",
    ]);
  });
});

describe("waitlists update --on-invite-expiry --remind-days, and waitlists scheduler run --at", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  it("sets what expiry does and the reminder (audited), refuses bad values, and runs the due work as of an instant", () => {
    const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Timed", "--website", "https://example.com");
    expect(cli.json("waitlists", "update", id, "--on-invite-expiry", "reject", "--remind-days", "3")).toMatchObject({ id, on_invite_expiry: "reject", reminder_days_before: 3, invite_expiry_days: 14 });
    expect(cli.run("emails", "show", id).stdout).toContain("good for 14 days after the invitation. Not redeemed by then: rejected; a reminder email 3 days before.");
    const before = cli.rows("invitation_emails");
    for (const [args, message] of [
      [["--on-invite-expiry", "drop"], "error: invalid --on-invite-expiry: must be requeue (back to waiting, at the front of the line) or reject (got \"drop\")"],
      [["--remind-days", "soon"], "error: invalid --remind-days: must be a whole number of days from 1 to 364 (got \"soon\")"],
      [["--remind-days", "14"], "error: The reminder (14 days before expiry) must come after the invitation: fewer days than the invite links' 14."],
    ] as const) {
      expect(expectOneLineError(cli.run("waitlists", "update", id, ...args))).toBe(message);
    }
    expect(cli.rows("invitation_emails")).toEqual(before);
    expect(cli.json("waitlists", "update", id, "--remind-days", "off", "--on-invite-expiry", "requeue")).toMatchObject({ on_invite_expiry: "requeue", reminder_days_before: null });
    expect(cli.rows("audit_log").filter((row) => row.action === "waitlist.invitation_email").map((row) => row.summary)).toEqual([
      "an expired invitation is rejected; reminder 3 days before expiry",
      "an expired invitation is requeued at the front of the line; no reminder",
    ]);

    expect(cli.run("waitlists", "scheduler", "run", "--at", "2026-12-01T09:00:00Z").stdout).toBe("As of 2026-12-01T09:00:00.000Z: 0 invitations reminded, 0 expired, 0 scheduled runs.\n");
    expect(expectOneLineError(cli.run("waitlists", "scheduler", "run", "--at", "tomorrow"))).toBe('error: invalid --at: must be an ISO 8601 instant with its zone, such as 2026-12-01T09:00:00Z (got "tomorrow")');
  });
});
