import { describe, expect, it } from "vitest";
import { isLookalike, mailboxOf } from "@/lib/domain/joining/lookalike";

describe("mailboxOf", () => {
  it("drops plus tags for every provider, dots only at Gmail (one domain for gmail.com and googlemail.com), in lower case", () => {
    expect(mailboxOf(" Ada+Beta@Example.COM ")).toBe("ada@example.com");
    expect(mailboxOf("ada.lovelace+x+y@example.com")).toBe("ada.lovelace@example.com");
    expect(mailboxOf("A.da.Love.lace+news@GoogleMail.com")).toBe("adalovelace@gmail.com");
    expect(mailboxOf("adalovelace@gmail.com")).toBe("adalovelace@gmail.com");
    // A leading plus is the whole local part, not a tag.
    expect(mailboxOf("+ada@example.com")).toBe("+ada@example.com");
    expect(mailboxOf("not an address")).toBe("not an address");
  });

  it("tells look-alikes apart from other people", () => {
    expect(isLookalike("ada@example.com", "ADA+2@example.com")).toBe(true);
    expect(isLookalike("ada.l@gmail.com", "adal+1@googlemail.com")).toBe(true);
    expect(isLookalike("ada.l@example.com", "adal@example.com")).toBe(false);
    expect(isLookalike("ada@example.com", "ada@example.org")).toBe(false);
  });
});
