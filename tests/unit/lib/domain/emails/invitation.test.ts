import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { DEFAULT_INVITATION_SUBJECT, getInvitationEmail, previewInvitation, renderTemplate, updateInvitationEmail } from "@/lib/domain/emails/invitation";
import type { SignupRow } from "@/lib/domain/signups/row";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const waitlist = { name: "Acme Beta", website: "https://acme.example" };
const signup: SignupRow = {
  id: 7,
  email: "jane@example.com",
  verified: true,
  referral: false,
  customInputs: [{ label: "company", value: "Acme" }, { label: "seats", value: 3 }, { other: "x" }],
  createdAt: new Date(0),
  status: "invited",
  statusChangedAt: null,
};

describe("renderTemplate", () => {
  it("fills every placeholder, with or without spaces inside the braces", () => {
    expect(renderTemplate("{{email}} / {{ waitlist.name }} / {{waitlist.website}} / {{input.company}} / {{input.seats}} / [{{input.missing}}]", waitlist, signup)).toBe(
      "jane@example.com / Acme Beta / https://acme.example / Acme / 3 / []",
    );
  });

  it("inserts single-line text: a stored line break, NUL, C1 control or bidi override becomes a space, so no line can be forged", () => {
    const forged = { ...signup, email: "jane@example.com\r\nBcc: x@evil.example", customInputs: [{ label: "company", value: "Acme\r\nBcc: attacker@evil.example\u0000\u0085\u202Egnp.exe" }] };
    const text = renderTemplate("Hello {{input.company}} at {{email}}\nbye", { name: "Beta\nX", website: "https://acme.example" }, forged);
    expect(text).toBe("Hello Acme Bcc: attacker@evil.example gnp.exe at jane@example.com Bcc: x@evil.example\nbye");
    expect(renderTemplate("{{waitlist.name}}", { name: "Beta\u2066X\u2069", website: "" }, signup)).toBe("Beta X ");
  });

  it("does not read placeholders inside the values it puts in", () => {
    expect(renderTemplate("{{input.company}}", waitlist, { ...signup, customInputs: [{ label: "company", value: "{{email}}" }] })).toBe("{{email}}");
  });
});

describe("invitation email settings", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist(waitlist, temp.db)).id;
    insertSignups(waitlistId, [{ email: "jane@example.com", verified: true, referral: false, customInputs: '[{"label":"company","value":"Acme"}]' }], temp.db);
  });
  afterEach(() => temp.close());

  it("are off with the default template until saved; saving is audited once per change", async () => {
    expect(await getInvitationEmail(waitlistId, temp.db)).toMatchObject({ enabled: false, subject: DEFAULT_INVITATION_SUBJECT });
    await updateInvitationEmail("cli", waitlistId, { enabled: true, subject: "Hi from {{waitlist.name}}" }, temp.db);
    await updateInvitationEmail("cli", waitlistId, { enabled: true }, temp.db);
    expect(await getInvitationEmail(waitlistId, temp.db)).toMatchObject({ enabled: true, subject: "Hi from {{waitlist.name}}" });
    expect((await listAudit({ action: "waitlist.invitation_email", limit: 5 }, temp.db)).map((row) => row.summary)).toEqual(["invitation emails on; subject changed"]);
  });

  it("refuse an unknown placeholder, an empty body and a subject on two lines", async () => {
    await expect(updateInvitationEmail("cli", waitlistId, { body: "Hello {{name}}" }, temp.db)).rejects.toThrow(/unknown placeholder \{\{name\}\}/);
    await expect(updateInvitationEmail("cli", waitlistId, { body: "  " }, temp.db)).rejects.toThrow(/must not be empty/);
    await expect(updateInvitationEmail("cli", waitlistId, { subject: "a\nb" }, temp.db)).rejects.toThrow(/one line/);
    expect((await listAudit({ limit: 5 }, temp.db)).filter((row) => row.action === "waitlist.invitation_email")).toEqual([]);
  });

  it("preview a real signup with the saved template or a draft", async () => {
    const id = String(temp.db.$client.prepare("SELECT id FROM signups").pluck().get());
    expect(await previewInvitation(waitlistId, id, {}, temp.db)).toEqual({ to: "jane@example.com", subject: "You're invited to Acme Beta", text: expect.stringContaining("https://acme.example") });
    expect(await previewInvitation(waitlistId, id, { subject: "For {{input.company}}", body: "{{email}}" }, temp.db)).toEqual({ to: "jane@example.com", subject: "For Acme", text: "jane@example.com" });
    await expect(previewInvitation(waitlistId, "999", {}, temp.db)).rejects.toThrow(/has no signup 999/);
  });
});
