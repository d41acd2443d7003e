import { describe, expect, it } from "vitest";
import { domainAndParents, isDisposableAddress } from "@/lib/domain/fraud/disposable";

describe("isDisposableAddress", () => {
  it("matches a listed domain in any case, and the subdomains of a listed domain", () => {
    expect(isDisposableAddress("someone@mailinator.com")).toBe(true);
    expect(isDisposableAddress("  Someone@MAILINATOR.com ")).toBe(true);
    expect(isDisposableAddress("someone@inbox.mailinator.com")).toBe(true);
    expect(isDisposableAddress("someone@yopmail.com")).toBe(true);
  });

  it("leaves ordinary domains, and domains that only end like a listed one, alone", () => {
    expect(isDisposableAddress("ada@gmail.com")).toBe(false);
    expect(isDisposableAddress("ada@example.com")).toBe(false);
    expect(isDisposableAddress("ada@myownmailinator.example")).toBe(false);
    expect(isDisposableAddress("ada@mailinator.com.example")).toBe(false);
  });

  it("reads the domain after the last @ and lists it with each parent, never the bare top-level domain", () => {
    expect(domainAndParents('"a@b"@x.Mail.example.com')).toEqual(["x.mail.example.com", "mail.example.com", "example.com"]);
    expect(domainAndParents("ada@example.com.")).toEqual(["example.com"]);
  });
});
