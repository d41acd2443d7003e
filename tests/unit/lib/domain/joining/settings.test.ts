import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { DEFAULT_JOIN_SETTINGS, joinSettingsOf, updateJoinSettings } from "@/lib/domain/joining/settings";
import { deleteWaitlistAs } from "@/lib/domain/waitlists/manage";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("join settings", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
  });
  afterEach(() => temp.close());

  it("are the defaults, joining closed and the challenge on, until saved", async () => {
    expect(await joinSettingsOf(waitlistId, temp.db)).toEqual({ joining: "closed", verification: false, fields: [], successMessage: "", embedOrigins: [], challenge: true, headline: "", description: "", accentColor: "", leaderboard: false, disposable: "flag" });
    expect(DEFAULT_JOIN_SETTINGS.joining).toBe("closed");
  });

  it("change only what is given, store it, and audit each change once", async () => {
    const fields = [
      { label: "Company", type: "text" as const, required: true },
      { label: "Team size", type: "choice" as const, options: ["1-10", "11-50"], required: false },
    ];
    const after = await updateJoinSettings(waitlistId, { joining: "open", fields, embedOrigins: ["https://Example.com/", "https://example.com"] }, "cli", temp.db);
    expect(after).toEqual({ ...DEFAULT_JOIN_SETTINGS, joining: "open", fields, embedOrigins: ["https://example.com"] });
    expect(await joinSettingsOf(waitlistId.toUpperCase(), temp.db)).toEqual(after);
    await updateJoinSettings(waitlistId, { verification: true, successMessage: "Thanks!" }, "cli", temp.db);
    expect(await joinSettingsOf(waitlistId, temp.db)).toMatchObject({ joining: "open", verification: true, successMessage: "Thanks!", fields });
    // Saving the same again changes nothing and writes no audit row.
    await updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    expect((await listAudit({ action: "waitlist.join_settings", limit: 10 }, temp.db)).map((row) => [row.target, row.summary])).toEqual([
      [waitlistId, "verification on; success message changed"],
      [waitlistId, "joining open; 2 form fields; embed origins: https://example.com"],
    ]);
  });

  it.each([
    [{ fields: [{ label: "Plan", type: "choice", required: true }] }, /fields.0: the choice field "Plan" needs its options/],
    [{ fields: [{ label: "Name", type: "text", options: ["a"], required: true }] }, /takes no options/],
    [{ fields: [{ label: "Name", type: "text", required: true }, { label: "name", type: "text", required: false }] }, /two fields have the same label/],
    [{ fields: [{ label: " ", type: "text", required: true }] }, /fields.0.label: must not be empty/],
    [{ embedOrigins: ["https://example.com/path"] }, /embedOrigins.0: must be an origin/],
    [{ embedOrigins: ["javascript:alert(1)"] }, /must be an origin/],
    [{ joining: "ajar" }, /joining/],
    [{ colour: "red" }, /Unrecognized key/],
  ])("refuse %j with a message naming the setting", async (change, message) => {
    await expect(updateJoinSettings(waitlistId, change as never, "cli", temp.db)).rejects.toThrow(message);
    expect(await joinSettingsOf(waitlistId, temp.db)).toEqual(DEFAULT_JOIN_SETTINGS);
  });

  it("are not_found for an unknown waitlist and go with a deleted one", async () => {
    await expect(updateJoinSettings("00000000-0000-4000-8000-000000000000", { joining: "open" }, "cli", temp.db)).rejects.toThrow(/No waitlist has the id/);
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
    await deleteWaitlistAs("cli", waitlistId, { confirm: "Acme Beta" }, temp.db);
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM join_settings").get()).toEqual({ n: 0 });
  });
});

describe("join settings: the brand and the leaderboard", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
  });
  afterEach(() => temp.close());

  it("store a headline, a description, an accent colour (lower case) and the leaderboard, audited", async () => {
    const after = await updateJoinSettings(waitlistId, { headline: "  Acme is coming  ", description: "**Soon.**", accentColor: "#0F766E", leaderboard: true }, "cli", temp.db);
    expect(after).toMatchObject({ headline: "Acme is coming", description: "**Soon.**", accentColor: "#0f766e", leaderboard: true });
    expect(await joinSettingsOf(waitlistId, temp.db)).toEqual(after);
    await updateJoinSettings(waitlistId, { accentColor: "" }, "cli", temp.db);
    expect((await listAudit({ action: "waitlist.join_settings", limit: 10 }, temp.db)).map((row) => row.summary)).toEqual([
      "accent colour default",
      "headline changed; description changed; accent colour #0f766e; leaderboard on",
    ]);
  });

  it.each([
    [{ accentColor: "#7dd3fc" }, /^Invalid join settings: accentColor: the accent colour #7dd3fc has a contrast of 1\.\d\d:1 against the button's white text and the page; WCAG AA needs 4\.5:1/],
    [{ accentColor: "blue" }, /accentColor: must be a colour such as #1d4ed8/],
    [{ accentColor: "#12345" }, /accentColor: must be a colour such as #1d4ed8/],
    [{ headline: "two\nlines" }, /headline: must be one line/],
    [{ headline: "x".repeat(121) }, /headline: Too big/],
    [{ description: "x".repeat(2001) }, /description: Too big/],
  ])("refuse %j, saying why, and change nothing", async (change, message) => {
    await expect(updateJoinSettings(waitlistId, change, "cli", temp.db)).rejects.toThrow(message);
    expect(await joinSettingsOf(waitlistId, temp.db)).toEqual({ ...DEFAULT_JOIN_SETTINGS });
    expect(await listAudit({ action: "waitlist.join_settings", limit: 10 }, temp.db)).toEqual([]);
  });
});
