import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { signupEvents } from "@/lib/domain/events";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { updateOwnAnswers } from "@/lib/domain/people/answers";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { getSignup } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const fields = [
  { label: "Company", type: "text" as const, required: true },
  { label: "Plan", type: "choice" as const, options: ["Free", "Pro"], required: false },
];

describe("updateOwnAnswers", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  let signupId: number;
  const stored = async () => (await getSignup(waitlistId, signupId, temp.db))!.customInputs;

  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open", fields }, "cli", temp.db);
    signupId = (await joinWaitlist({ waitlistId, email: "ada@example.com", customInputs: [{ label: "Company", value: "Acme" }] }, temp.db)).signup.id;
    // An input that is not the form's (an import's column) stays whatever the person changes.
    temp.db.$client.prepare("UPDATE signups SET custom_inputs = json_insert(custom_inputs, '$[#]', json_object('label', 'Source', 'value', 'import')) WHERE id = ?").run(signupId);
  });
  afterEach(() => temp.close());

  it("saves answers by the form's rules, with signup.updated and an audit row as the person, in one transaction", async () => {
    expect(await updateOwnAnswers(waitlistId, signupId, [{ label: "company", value: "Acme Rockets" }, { label: "Plan", value: "Pro" }], temp.db)).toEqual({ saved: true, changed: ["Company", "Plan"] });
    expect(await stored()).toEqual([
      { label: "Company", value: "Acme Rockets" },
      { label: "Plan", value: "Pro" },
      { label: "Source", value: "import" },
    ]);
    expect((await signupEvents(signupId, temp.db)).map((event) => event.type)).toEqual(["signup.created", "signup.updated"]);
    const payload = temp.db.$client.prepare("SELECT payload FROM events WHERE type = 'signup.updated'").pluck().get() as string;
    expect(JSON.parse(payload)).toEqual({ changed: ["Company", "Plan"] });
    expect(await listAudit({ action: "signup.update", limit: 5 }, temp.db)).toMatchObject([{ actor: "person", actorKeyId: null, target: waitlistId, summary: `signup ${signupId} changed 2 answers on its own page` }]);
  });

  it("the same answers again change nothing and record nothing", async () => {
    expect(await updateOwnAnswers(waitlistId, signupId, [{ label: "Company", value: "Acme" }], temp.db)).toEqual({ saved: true, changed: [] });
    expect(await signupEvents(signupId, temp.db)).toHaveLength(1);
    expect(await listAudit({ action: "signup.update", limit: 5 }, temp.db)).toEqual([]);
  });

  it("refuses what the join form refuses, in its words, changing nothing", async () => {
    const before = await stored();
    for (const [answers, message] of [
      [[], 'The field "Company" is required.'],
      [[{ label: "Company", value: "Acme" }, { label: "Plan", value: "Gold" }], '"Plan" must be one of: Free, Pro.'],
      [[{ label: "Company", value: "two\nlines" }], 'The answer to "Company" contains a line break: answers are one line of plain text.'],
      [[{ label: "Age", value: "40" }], 'The form has no field "Age" (its fields: Company, Plan).'],
    ] as const) {
      expect(await updateOwnAnswers(waitlistId, signupId, [...answers], temp.db)).toEqual({ saved: false, reason: "invalid", message });
    }
    expect(await stored()).toEqual(before);
    expect(await signupEvents(signupId, temp.db)).toHaveLength(1);
  });

  it("an erased signup is gone", async () => {
    await eraseSignup("cli", waitlistId, signupId, temp.db);
    expect(await updateOwnAnswers(waitlistId, signupId, [{ label: "Company", value: "Back" }], temp.db)).toEqual({ saved: false, reason: "gone" });
  });
});
