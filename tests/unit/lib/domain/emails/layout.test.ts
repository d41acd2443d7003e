import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setJoinLogo } from "@/lib/domain/branding/logo";
import { composeEmail } from "@/lib/domain/emails/compose";
import { emailHtml, escapeHtml, type EmailBrand } from "@/lib/domain/emails/layout";
import { renderInvitation } from "@/lib/domain/emails/invitation";
import { testInvitationEmail } from "@/lib/domain/emails/test-invitation";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import type { SignupRow } from "@/lib/domain/signups/row";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const brand: EmailBrand = { name: "Acme Beta", website: "https://acme.example", accentColor: "#0f766e" };

/** The body cell's HTML (between the header and the footer rows). */
const bodyOf = (html: string) => html.split('<tr><td style="padding:24px 28px 8px">')[1]!.split('<tr><td style="padding:16px 28px')[0]!.trim().replace(/<\/td><\/tr>$/, "").trim();

describe("emailHtml", () => {
  it("is a whole, email-client-safe document: lang, title, tables and inline styles, nothing external", () => {
    const html = emailHtml({ subject: "You're invited", text: "Hello,\n\nWelcome.", brand });
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en" dir="ltr">/);
    expect(html).toContain("<title>You&#39;re invited</title>");
    expect(html).toContain('<div role="article" aria-roledescription="email" aria-label="You&#39;re invited" lang="en" dir="ltr">');
    expect(html).toContain('<table role="presentation"');
    expect(html).not.toMatch(/<style|<script|<link|class=/i);
    // The only URLs are the ones the email names (no external CSS, fonts or images).
    expect([...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1])).toEqual(["https://acme.example"]);
  });

  it("makes paragraphs from blank lines and line breaks from single ones", () => {
    expect(bodyOf(emailHtml({ subject: "s", text: "Hello,\n\nLine one\nline two\n\n\n\nLast.\n", brand }))).toBe('<p style="margin:0 0 16px">Hello,</p>\n<p style="margin:0 0 16px">Line one<br>line two</p>\n<p style="margin:0 0 16px">Last.</p>');
  });

  it("escapes every character of the text, the subject and the brand that HTML reads", () => {
    const hostile = { name: `Acme "<b>" & Co's`, website: "javascript:alert(1)", accentColor: "red;background:url(https://evil.example)" };
    const html = emailHtml({ subject: `</title><script>alert(1)</script>`, text: `<script>alert("x")</script> & 'quoted' "double"`, brand: hostile });
    expect(html).not.toContain("<script");
    expect(html).toContain("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>");
    expect(bodyOf(html)).toBe('<p style="margin:0 0 16px">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &quot;double&quot;</p>');
    expect(html).toContain("Acme &quot;&lt;b&gt;&quot; &amp; Co&#39;s");
    // A website that is not http(s) is not linked, and an accent that is not #rrggbb is the default.
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("evil.example");
    expect(html).toContain("#1d4ed8");
  });

  it("links http(s) URLs only, leaving the sentence's punctuation outside, and escapes them in the attribute", () => {
    const body = bodyOf(emailHtml({ subject: "s", text: 'See https://acme.example/a?x=1&y="2". Or (http://acme.example/b), ftp://acme.example/c, javascript:alert(1)', brand }));
    expect(body).toContain('<a href="https://acme.example/a?x=1&amp;y=" style="color:#0f766e;word-break:break-all">https://acme.example/a?x=1&amp;y=</a>&quot;2&quot;.');
    expect(body).toContain('(<a href="http://acme.example/b" style="color:#0f766e;word-break:break-all">http://acme.example/b</a>),');
    expect(body).toContain("ftp://acme.example/c, javascript:alert(1)");
    expect(body.match(/<a /g)).toHaveLength(2);
  });

  it("shows the invite link, and a confirmation link, alone on their paragraph as a button in the accent colour (the first one only)", () => {
    const invite = "https://app.example/signup?invite=abc.def";
    const body = bodyOf(emailHtml({ subject: "s", text: `You're in.\n\n${invite}\n\n${invite}\n\nInline: ${invite}`, brand }));
    expect(body).toContain(`<td style="border-radius:6px;background:#0f766e"><a href="${invite}" style="display:inline-block;padding:12px 22px;font-weight:600;font-size:16px;color:#ffffff;text-decoration:none;border-radius:6px">Accept your invitation</a></td>`);
    expect(body.match(/Accept your invitation/g)).toHaveLength(1);
    expect(body.match(new RegExp(`href="${invite.replace(/[.?]/g, "\\$&")}"`, "g"))).toHaveLength(4);
    const confirm = bodyOf(emailHtml({ subject: "s", text: "Please confirm:\n\nhttp://127.0.0.1:3000/join/4f1c/confirm?token=x.y\n", brand }));
    expect(confirm).toContain(">Confirm your address</a>");
    // An ordinary link alone on its paragraph stays a link.
    expect(bodyOf(emailHtml({ subject: "s", text: "https://acme.example\n", brand }))).not.toContain("border-radius:6px");
  });

  it("shows the logo from an absolute https URL, and the name as text without one", () => {
    expect(emailHtml({ subject: "s", text: "t", brand: { ...brand, logoUrl: "https://waitlist.example/join/x/logo?v=1" } })).toContain('<img src="https://waitlist.example/join/x/logo?v=1" alt="Acme Beta" height="40"');
    const plain = emailHtml({ subject: "s", text: "t", brand: { ...brand, logoUrl: "http://waitlist.example/logo" } });
    expect(plain).not.toContain("<img");
    expect(plain).toContain('<span style="font-size:20px;font-weight:700;color:#18181b">Acme Beta</span>');
  });

  it("escapeHtml escapes the five characters HTML reads", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
  });
});

describe("composeEmail", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  it("gives an invitation of a signup whose answers hold markup its HTML, every value escaped, in the list's brand", async () => {
    const waitlist = await createWaitlist({ name: "Beta <One>", website: "https://beta.example" }, temp.db);
    await updateJoinSettings(waitlist.id, { accentColor: "#0f766e" }, "cli", temp.db);
    const signup: SignupRow = { id: 1, email: "tom&jerry@example.com", verified: true, referral: false, customInputs: [{ label: "Company", value: `<script>alert("x")</script>` }], createdAt: new Date(0), status: "invited", statusChangedAt: null };
    const text = renderInvitation({ subject: "Hi {{email}}", body: "Company: {{input.Company}}\n\n{{invite.url}}\n" }, waitlist, signup, "", { invite: "https://app.example/signup?invite=tok" });
    const email = await composeEmail(waitlist.id, text, "https://waitlist.example", temp.db);
    expect(email.text).toBe(`Company: <script>alert("x")</script>\n\nhttps://app.example/signup?invite=tok\n`);
    expect(email.html).toContain("Company: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(email.html).not.toContain("<script");
    expect(email.html).toContain("<title>Hi tom&amp;jerry@example.com</title>");
    expect(email.html).toContain("Beta &lt;One&gt;");
    expect(email.html).toContain("background:#0f766e");
    expect(email.html).toContain(">Accept your invitation</a>");
  });

  it("shows the logo only when PUBLIC_URL is https, by its versioned URL; a waitlist gone gets text alone", async () => {
    const waitlist = await createWaitlist({ name: "Logo list", website: "https://logo.example" }, temp.db);
    await setJoinLogo(waitlist.id, new Uint8Array(readFileSync("tests/support/images/logo.png")), "cli", temp.db);
    const mail = { to: "a@example.com", subject: "s", text: "t" };
    expect((await composeEmail(waitlist.id, mail, "https://waitlist.example", temp.db)).html).toMatch(new RegExp(`<img src="https://waitlist.example/join/${waitlist.id}/logo\\?v=\\d+" alt="Logo list"`));
    expect((await composeEmail(waitlist.id, mail, "http://127.0.0.1:3000", temp.db)).html).not.toContain("<img");
    expect(await composeEmail("00000000-0000-4000-8000-000000000000", mail, "https://waitlist.example", temp.db)).toEqual(mail);
  });

  it("makes a test invitation with sample answers, the [Test] subject and no real token", async () => {
    const waitlist = await createWaitlist({ name: "Test list", website: "https://test.example" }, temp.db);
    await updateJoinSettings(waitlist.id, { fields: [{ label: "Role", type: "choice", options: ["Engineer", "Founder"], required: true }, { label: "Company", type: "text", required: false }] }, "cli", temp.db);
    const email = await testInvitationEmail(waitlist.id, "me@example.com", { subject: "Hello {{email}}", body: "{{input.Role}} at {{input.Company}}\n\n{{invite.url}}", inviteUrl: "https://app.example/signup" }, "https://waitlist.example", new Date(0), temp.db);
    expect(email).toMatchObject({ to: "me@example.com", subject: "[Test] Hello me@example.com" });
    expect(email.text).toBe(`Engineer at Sample Company\n\nhttps://app.example/signup?invite=TOKEN-MADE-WHEN-INVITED\n\nYour own page (change your answers, download your data or leave the list; the link works for 30 days):\n\nhttps://waitlist.example/join/${waitlist.id}/me?t=SAMPLE\n`);
    expect(email.html).toContain(">Accept your invitation</a>");
  });
});
