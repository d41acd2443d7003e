import { describe, expect, it } from "vitest";
import { maskEmail } from "@/lib/domain/signups/email-mask";

describe("maskEmail", () => {
  it("keeps the first character of the mailbox and of the domain, and the domain's last label", () => {
    expect(maskEmail("alice@gmail.com")).toBe("a***@g***.com");
    expect(maskEmail("Bob.Smith+beta@Example.ORG")).toBe("B***@e***.org");
  });

  it("shows as little of a short mailbox as of a long one", () => {
    expect(maskEmail("a@b.io")).toBe("a***@b***.io");
    expect(maskEmail("ab@gmail.com")).toBe(maskEmail("abcdefghij@gmail.com"));
    expect(maskEmail("ab@gmail.com")).toBe("a***@g***.com");
  });

  it("hides subdomains and all but the last label", () => {
    expect(maskEmail("carol@mail.eu.acme.co.uk")).toBe("c***@m***.uk");
    expect(maskEmail("dan@localhost")).toBe("d***@l***");
  });

  it("masks a first character outside the BMP whole, and anything without an @", () => {
    expect(maskEmail("😀x@example.com")).toBe("😀***@e***.com");
    expect(maskEmail("not-an-address")).toBe("n***");
  });
});
