import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { funnelStats } from "@/lib/domain/funnel/stats";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { cliSandbox, expectOneLineError, type CliSandbox } from "../run-cli";

describe("waitlists stats", () => {
  let cli: CliSandbox;
  let id: string;
  beforeAll(async () => {
    cli = cliSandbox();
    id = cli.json<{ id: string }>("waitlists", "create", "--name", "Funnel", "--website", "https://example.com").id;
    const db = openDatabase(cli.databasePath);
    await updateJoinSettings(id, { joining: "open" }, "cli", db);
    await joinWaitlist({ waitlistId: id, email: "a@example.com", customInputs: [], source: { utm_source: "newsletter" } }, db);
    await joinWaitlist({ waitlistId: id, email: "b@example.com", customInputs: [] }, db);
    db.$client.close();
  });
  afterAll(() => cli.remove());

  it("prints the funnel of GET /v1/waitlist/{id}/stats with --json, and a table without", async () => {
    const db = openDatabase(cli.databasePath);
    const expected = await funnelStats(id, {}, db);
    db.$client.close();
    expect(cli.json("waitlists", "stats", id)).toEqual(expected);
    expect(expected.totals.joined).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect(cli.json<{ from: string; totals: { joined: number } }>("waitlists", "stats", id, "--from", today, "--to", today)).toMatchObject({ from: today, totals: { joined: 2 } });
    const text = cli.run("waitlists", "stats", id);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^joined\s+2\s/m);
    expect(text.stdout).toMatch(/^newsletter\s+1\s/m);
  });

  it("refuses a malformed date and an inverted range, naming the option", () => {
    const malformed = cli.run("waitlists", "stats", id, "--from", "2026-02-30");
    expect(malformed.status).toBe(1);
    expect(expectOneLineError(malformed)).toContain('"from"');
    expect(expectOneLineError(cli.run("waitlists", "stats", id, "--from", "2026-10-02", "--to", "2026-10-01"))).toContain('"to" must not be before "from"');
  });
});
