import { describe, expect, it } from "vitest";
import { exportFileName } from "@/lib/dashboard/export-file-name";
import { parseSignupTableParams } from "@/lib/dashboard/signup-table";

const today = new Date("2026-11-24T15:00:00Z");
const name = (query: Record<string, string>, waitlist = "Acme") => exportFileName(waitlist, parseSignupTableParams(query), today);

describe("exportFileName", () => {
  it("names the waitlist, each filter and the date range", () => {
    // The dashboard's range "Nov 1 to Nov 22" ends the next midnight.
    expect(name({ verified: "true", created_since: "2026-11-01", created_until: "2026-11-23" })).toBe("acme-verified-2026-11-01..2026-11-22.csv");
    expect(name({ verified: "false", referral: "true" })).toBe("acme-not-verified-referral-2026-11-24.csv");
    expect(name({ email_contains: "@Acme.com", "input.Company": "Acme Inc." })).toBe("acme-email-contains-acme-com-company-acme-inc-2026-11-24.csv");
    expect(name({ created_since: "2026-11-01" })).toBe("acme-signups-2026-11-01...csv");
  });

  it("says signups and the day of the export without filters; sort and page change nothing", () => {
    expect(name({})).toBe("acme-signups-2026-11-24.csv");
    expect(name({ sort: "email", dir: "asc", page: "3" })).toBe("acme-signups-2026-11-24.csv");
  });

  it("keeps only safe characters, and a bounded length", () => {
    const file = name({ email_contains: '../"évil"\r\n;name=x' }, "Ünïcödé / list\\*?");
    expect(file).toMatch(/^[a-z0-9.-]+\.csv$/);
    expect(file).toBe("unicode-list-email-contains-evil-name-x-2026-11-24.csv");
    expect(name({ email_contains: "x".repeat(500) }, "y".repeat(500)).length).toBeLessThanOrEqual(180);
    expect(name({}, "!!!")).toBe("waitlist-signups-2026-11-24.csv");
  });
});
