import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { neutralizeFormula, SIGNUP_CSV_COLUMNS, signupCsvChunks, signupCsvStream } from "@/lib/domain/signups/csv";
import { csvLayout, IMPORT_FIELDS } from "@/lib/domain/signups/import-columns";
import { signupRowBatches } from "@/lib/domain/signups/queries";
import type { SignupRow } from "@/lib/domain/signups/row";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { streamOf, textOf } from "@/tests/support/batches";
import { tempDatabase } from "@/tests/support/temp-db";

const { db } = tempDatabase();

function addSignup(waitlistId: string, email: string, verified: boolean, customInputs: unknown[], createdAt: number) {
  db.$client
    .prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, 0, ?, ?)")
    .run(waitlistId, email, verified ? 1 : 0, JSON.stringify(customInputs), createdAt);
}

/** `count` verified signups `<prefix><n>@example.com` without custom inputs, 10 ms apart, in one transaction. */
function addSignups(waitlistId: string, prefix: string, count: number) {
  db.$client.transaction(() => {
    for (let index = 0; index < count; index++) addSignup(waitlistId, `${prefix}${index}@example.com`, true, [], 1_700_000_000_000 + index * 10);
  })();
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
    const waitlist = await createWaitlist({ name: "CSV", website: "https://example.com" }, db);
    for (let index = 0; index < 2500; index++) addSignup(waitlist.id, `p${index}@example.com`, index % 2 === 0, [], 1_700_000_000_000 + index);
    addSignup(waitlist.id, "=cmd@example.com", true, [{ label: 'Say "hi", ok', value: "line1\nline2" }], 1_800_000_000_000);
    const text = await readAll(signupCsvStream({ waitlistId: waitlist.id, verified: true }, [], db));
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual(["email", "verified", "referral", "custom_inputs", "created_at", "status", "status_changed_at"]);
    expect(records).toHaveLength(1251);
    expect(records[0]).toEqual({ email: "p0@example.com", verified: "true", referral: "false", custom_inputs: "[]", created_at: new Date(1_700_000_000_000).toISOString(), status: "waiting", status_changed_at: "" });
    const last = records.at(-1)!;
    expect(last.email).toBe("'=cmd@example.com");
    expect(JSON.parse(last.custom_inputs!)).toEqual([{ label: 'Say "hi", ok', value: "line1\nline2" }]);
  });

  it("streams what the CLI's export writes from parsed rows: the same JSON texts and times", async () => {
    const waitlist = await createWaitlist({ name: "CSV same", website: "https://example.com" }, db);
    const inputs = [{ label: "Name", value: "Zoë 😀 \u2028 </script>" }, { nested: { a: [1, 1.5, -0, 1e21, 1e-7, true, null] } }, { label: "Quote", value: 'say "hi", ok' }];
    // Milliseconds, before 1970, a leap day, after 2038.
    const times = [-86_399_999, 0, 951_782_400_123, 2_200_000_000_999];
    times.forEach((time, index) => addSignup(waitlist.id, `${index === 0 ? "=" : ""}same${index}@example.com`, true, index % 2 ? inputs : [], time));
    // A stored text in its own spelling (spaces, 1.0, an escape), as a hand-written INSERT may leave it.
    db.$client
      .prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, 'spelled@example.com', 0, 1, ?, 1)")
      .run(waitlist.id, '[ {"label": "Seats", "value": 1.0, "x": "\\u00e9\\/"} ]');
    const scope = { waitlistId: waitlist.id };
    const streamed = await readAll(signupCsvStream(scope, [], db));
    expect(streamed).toBe(await textOf(signupCsvChunks(signupRowBatches(scope, 1000, db))));
    expect(streamed).toContain("1969-12-31T00:00:00.001Z");
    expect(streamed).toContain(`spelled@example.com,false,true,"[{""label"":""Seats"",""value"":1,""x"":""é/""}]",1970-01-01T00:00:00.001Z`);
  });

  it("lets other work run between chunks, even when the reader takes every chunk at once", async () => {
    const waitlist = await createWaitlist({ name: "CSV turns", website: "https://example.com" }, db);
    addSignups(waitlist.id, "t", 5000);
    let chunks = 0;
    let chunksWhenOtherWorkRan = -1;
    setImmediate(() => (chunksWhenOtherWorkRan = chunks));
    const reader = signupCsvStream({ waitlistId: waitlist.id }, [], db).getReader();
    while (!(await reader.read()).done) chunks += 1;
    // 5,000 rows of about 70 characters make several chunks; the other work ran after the first at the latest.
    expect(chunks).toBeGreaterThanOrEqual(4);
    expect(chunksWhenOtherWorkRan).toBeGreaterThanOrEqual(0);
    expect(chunksWhenOtherWorkRan).toBeLessThanOrEqual(1);
  });

  it("reads nothing ahead of its reader: a client that stops reading stops the export", async () => {
    const waitlist = await createWaitlist({ name: "CSV lazy", website: "https://example.com" }, db);
    addSignups(waitlist.id, "l", 3000);
    const reader = signupCsvStream({ waitlistId: waitlist.id }, [], db).getReader();
    const decoder = new TextDecoder();
    const emails = (chunk: Uint8Array | undefined) => decoder.decode(chunk).split("\r\n").filter((line) => line.startsWith("l")).map((line) => line.split(",")[0]!);
    let read: string[] = [];
    while (read.length === 0) read = emails((await reader.read()).value);
    const last = Number(/^l(\d+)@/.exec(read.at(-1)!)![1]);
    expect(last).toBeLessThan(2000);
    // The reader pauses; then a signup joins right after the last row it got. A stream that read
    // ahead during the pause has passed that place in the list and never sends the newcomer.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    db.$client
      .prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, 'newcomer@example.com', 1, 0, '[]', ?)")
      .run(waitlist.id, 1_700_000_000_000 + last * 10 + 5);
    const rest: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(...decoder.decode(next.value).split("\r\n").map((line) => line.split(",")[0]!));
    expect(rest[0]).toBe("newcomer@example.com");
    expect(rest).toContain(`l${last + 1}@example.com`);
  });

  it("writes cells exactly as csv-stringify does with CRLF records (quotes, commas, CR, formulas)", async () => {
    const tricky = ['plain', 'say "hi"', "a,b", "line\r\nbreak", "ends with cr\r", "lone\nnewline", "lone\rcr", "=1+1", "'quoted", "-5", "@x", "\ttab", "", "é😀"];
    const rows: SignupRow[] = tricky.map((cell, index) => ({
      id: index,
      email: cell,
      verified: index % 2 === 0,
      referral: false,
      customInputs: [{ label: cell, value: cell }],
      createdAt: new Date(index === 0 ? -62_198_755_200_000 : 1_700_000_000_000 + index),
      status: index % 3 === 0 ? "invited" : "waiting",
      statusChangedAt: index % 3 === 0 ? new Date(1_800_000_000_000 + index) : null,
    }));
    const records = rows.map((row) =>
      [row.email, String(row.verified), String(row.referral), JSON.stringify(row.customInputs), row.createdAt.toISOString(), row.status, row.statusChangedAt?.toISOString() ?? ""].map(neutralizeFormula),
    );
    const expected = stringify([[...SIGNUP_CSV_COLUMNS], ...records], { record_delimiter: "\r\n" });
    expect(await textOf(signupCsvChunks(streamOf(rows)))).toBe(expected);
  });
});

describe("the export's header and the import's columns", () => {
  it("are one list: an export's header is read back with every field in its column and no custom input", async () => {
    const header = parse(await textOf(signupCsvChunks(streamOf())))[0] as string[];
    expect(header).toEqual([...IMPORT_FIELDS]);
    const layout = csvLayout(header);
    expect(layout).toEqual({ email: 0, verified: 1, referral: 2, customInputs: 3, createdAt: 4, status: 5, statusChangedAt: 6, extras: [] });
  });
});
