import { describe, expect, it } from "vitest";
import { shareLinks } from "@/lib/join/person-share";

describe("shareLinks", () => {
  it("links to each service's own share page with the referral link encoded, and to the mail program", () => {
    const link = "https://waitlist.example/join/0b5d6a44-6d1c-4c55-8f4e-5f0c4d1f3e2a?ref=abc23defgh";
    const links = Object.fromEntries(shareLinks(link, "Acme & Co").map((share) => [share.label, new URL(share.href)]));
    expect(Object.keys(links)).toEqual(["Email", "X", "LinkedIn", "WhatsApp"]);
    expect(links.Email!.protocol).toBe("mailto:");
    expect(links.Email!.searchParams.get("subject")).toBe("Join the Acme & Co waitlist");
    expect(links.Email!.searchParams.get("body")).toBe(`I joined the Acme & Co waitlist: join me!\n\n${link}`);
    expect([links.X!.origin + links.X!.pathname, links.X!.searchParams.get("url")]).toEqual(["https://x.com/intent/post", link]);
    expect([links.LinkedIn!.origin + links.LinkedIn!.pathname, links.LinkedIn!.searchParams.get("url")]).toEqual(["https://www.linkedin.com/sharing/share-offsite/", link]);
    expect([links.WhatsApp!.origin, links.WhatsApp!.searchParams.get("text")]).toEqual(["https://wa.me", `I joined the Acme & Co waitlist: join me! ${link}`]);
  });
});
