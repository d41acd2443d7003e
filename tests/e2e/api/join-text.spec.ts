import { expect, test } from "@playwright/test";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer } from "../support/api-fixtures";
import { rawSql } from "../support/raw-sql";

// POST /v1/waitlist/{id}/signup refuses text that could forge lines or reorder what a reader sees in
// an email (lib/core/single-line-text.ts): a 400 that names the field, and nothing stored.

const TEMPLATE = "/waitlist/{id}/signup" as const;

test("an answer or an address with a line break, NUL or bidi override is a 400 naming the field; nothing is stored", async ({ request }) => {
  const contract = await Contract.load(request);
  const joinKey = bearer((await createApiKey({ name: "join text joiner", roles: ["waitlist:join"] })).key);
  const waitlist = await createWaitlist({ name: `Join text ${Date.now()}`, website: "https://example.com/launch" });
  await updateJoinSettings(waitlist.id, { joining: "open", fields: [{ label: "Company", type: "text", required: true }] }, "cli");
  const join = (body: unknown) => request.post(`/v1/waitlist/${waitlist.id}/signup`, { data: body, headers: joinKey });

  for (const [value, what] of [
    ["\r\nBcc: x@evil.example", "a line break"],
    ["Acme\u0000", "a NUL character"],
    ["\u202Eexe.gnp", "a bidirectional text control (U+202E)"],
  ]) {
    const problem = await expectProblem(contract, await join({ email: "ada@example.com", custom_inputs: [{ label: "Company", value }] }), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "custom_inputs" }, "POST");
    expect(problem.detail).toContain(`The answer to "Company" contains ${what}`);
  }
  const problem = await expectProblem(contract, await join({ email: "ada@example.com\r\nBcc: x@evil.example", custom_inputs: [{ label: "Company", value: "Acme" }] }), TEMPLATE, { status: 400, code: "invalid_parameter", parameter: "email" }, "POST");
  expect(problem.detail).toContain("The email address contains a line break");
  expect(await rawSql.get("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?", waitlist.id)).toEqual({ n: 0 });

  expect((await join({ email: "ada@example.com", custom_inputs: [{ label: "Company", value: "Acme" }] })).status()).toBe(201);
});
