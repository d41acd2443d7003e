import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { emailPersonLink, PERSON_LINK_EMAILS_PER_HOUR } from "@/lib/domain/people/link-email";
import { alreadyOnListEmail } from "@/lib/domain/verification/already-on-list";
import { confirmationEmail } from "@/lib/domain/verification/email";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const PUBLIC_URL = "https://waitlist.example";

describe("emailPersonLink", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  let signupId: number;
  const emails = () => temp.db.$client.prepare("SELECT recipient, subject, body, event_type AS eventType, state FROM deliveries WHERE channel = 'email' ORDER BY id").all() as { recipient: string; subject: string; body: string; eventType: string; state: string }[];
  const ask = async (address: string, now: number, extra: { clientAddress?: string; emailConfigured?: boolean } = {}) =>
    await emailPersonLink(waitlistId, address, { emailConfigured: extra.emailConfigured ?? true, publicUrl: PUBLIC_URL, clientAddress: extra.clientAddress, now }, temp.db);

  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
    signupId = (await joinWaitlist({ waitlistId, email: "Ada@Example.com", customInputs: [] }, temp.db)).signup.id;
  });
  afterEach(() => temp.close());

  it("emails the address's signup (any case) a signed link to its page; an unknown address gets nothing", async () => {
    const start = Date.UTC(2026, 0, 1);
    expect(await ask("nobody@example.com", start)).toBe("not_on_list");
    expect(await ask(" ADA@example.com ", start)).toBe("sent");
    const [email, ...rest] = emails();
    expect(rest).toEqual([]);
    expect(email).toMatchObject({ recipient: "Ada@Example.com", subject: "Your link to the Acme Beta waitlist", eventType: "person_link", state: "pending" });
    const token = decodeURIComponent(new RegExp(`${PUBLIC_URL}/join/${waitlistId}/me\\?t=(\\S+)`).exec(email!.body)![1]!);
    expect(await readLinkToken(token, "person", start, temp.db)).toMatchObject({ ok: true, claims: { waitlistId, signupId } });
    expect(await readLinkToken(token, "person", start + 31 * 24 * 3_600_000, temp.db)).toEqual({ ok: false, reason: "expired" });
  });

  it("the confirmation and 'already on the list' emails end with the same kind of link", async () => {
    const waitlist = { id: waitlistId, name: "Acme Beta" };
    const signup = { id: signupId, email: "Ada@Example.com" };
    const now = Date.UTC(2026, 0, 1);
    for (const email of [await confirmationEmail(waitlist, signup, PUBLIC_URL, now, temp.db), await alreadyOnListEmail(waitlist, signup, PUBLIC_URL, now, temp.db)]) {
      const token = decodeURIComponent(new RegExp(`\\n\\nYour own page \\(.*\\):\\n\\n${PUBLIC_URL}/join/${waitlistId}/me\\?t=(\\S+)\\n$`).exec(email.text)![1]!);
      expect(await readLinkToken(token, "person", now, temp.db)).toMatchObject({ ok: true, claims: { waitlistId, signupId } });
    }
  });

  it("at most one a minute and a few an hour per signup; nothing without email configured", async () => {
    const start = Date.UTC(2026, 0, 1);
    expect(await ask("ada@example.com", start, { emailConfigured: false })).toBe("email_not_configured");
    expect(await ask("ada@example.com", start)).toBe("sent");
    expect(await ask("ada@example.com", start + 30_000)).toBe("rate_limited");
    for (let i = 1; i < PERSON_LINK_EMAILS_PER_HOUR; i++) expect(await ask("ada@example.com", start + i * 61_000)).toBe("sent");
    expect(await ask("ada@example.com", start + 10 * 61_000)).toBe("rate_limited");
    expect(emails()).toHaveLength(PERSON_LINK_EMAILS_PER_HOUR);
  });

  it("counts each request against the client's joins of the hour, known address or not", async () => {
    const start = Date.UTC(2026, 0, 1);
    const limit = 300; // JOINS_PER_CLIENT_PER_HOUR's default
    for (let i = 0; i < limit; i++) await ask(`stranger${i}@example.com`, start, { clientAddress: "192.0.2.7" });
    expect(await ask("ada@example.com", start, { clientAddress: "192.0.2.7" })).toBe("client_limited");
    expect(await ask("ada@example.com", start, { clientAddress: "192.0.2.8" })).toBe("sent");
  });
});
