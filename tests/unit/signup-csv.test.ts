import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { neutralizeFormula, signupCsvStream } from "@/lib/domain/signups/csv";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase } from "./temp-db";

const { db } = tempDatabase();

function addSignup(waitlistId: string, email: string, verified: boolean, customInputs: unknown[], createdAt: number) {
  db.$client
    .prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, 0, ?, ?)")
    .run(waitlistId, email, verified ? 1 : 0, JSON.stringify(customInputs), createdAt);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("signup CSV", () => {
  it("neutralizes cells that spreadsheets would run as formulas", () => {
    expect(neutralizeFormula("=1+1")).toBe("'=1+1");
    expect(neutralizeFormula("+x")).toBe("'+x");
    expect(neutralizeFormula("-x")).toBe("'-x");
    expect(neutralizeFormula("@x")).toBe("'@x");
    expect(neutralizeFormula("a@b.c")).toBe("a@b.c");
  });

  it("doubles a leading quote, so that the import can take exactly one off", () => {
    expect(neutralizeFormula("'x")).toBe("''x");
    expect(neutralizeFormula("'=x")).toBe("''=x");
    expect(neutralizeFormula("x'")).toBe("x'");
  });

  it("streams every filtered signup in creation order with a header, quoting where needed", async () => {
    const waitlist = createWaitlist({ name: "CSV", website: "https://example.com" }, db);
    for (let index = 0; index < 2500; index++) addSignup(waitlist.id, `p${index}@example.com`, index % 2 === 0, [], 1_700_000_000_000 + index);
    addSignup(waitlist.id, "=cmd@example.com", true, [{ label: 'Say "hi", ok', value: "line1\nline2" }], 1_800_000_000_000);
    const text = await readAll(signupCsvStream({ waitlistId: waitlist.id, verified: true }, db));
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual(["email", "verified", "referral", "custom_inputs", "created_at"]);
    expect(records).toHaveLength(1251);
    expect(records[0]).toEqual({ email: "p0@example.com", verified: "true", referral: "false", custom_inputs: "[]", created_at: new Date(1_700_000_000_000).toISOString() });
    const last = records.at(-1)!;
    expect(last.email).toBe("'=cmd@example.com");
    expect(JSON.parse(last.custom_inputs!)).toEqual([{ label: 'Say "hi", ok', value: "line1\nline2" }]);
  });

  it("lets other work run between batches, even when the reader takes every chunk at once", async () => {
    const waitlist = createWaitlist({ name: "CSV turns", website: "https://example.com" }, db);
    for (let index = 0; index < 5000; index++) addSignup(waitlist.id, `t${index}@example.com`, true, [], 1_700_000_000_000 + index);
    let chunks = 0;
    let chunksWhenOtherWorkRan = -1;
    setImmediate(() => (chunksWhenOtherWorkRan = chunks));
    const reader = signupCsvStream({ waitlistId: waitlist.id }, db).getReader();
    while (!(await reader.read()).done) chunks += 1;
    // The header and 5 batches of 1,000 rows; the other work ran after the first batch at the latest.
    expect(chunks).toBe(6);
    expect(chunksWhenOtherWorkRan).toBeGreaterThanOrEqual(0);
    expect(chunksWhenOtherWorkRan).toBeLessThanOrEqual(2);
  });
});
