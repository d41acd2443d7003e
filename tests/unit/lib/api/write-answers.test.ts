import { afterAll, describe, expect, it } from "vitest";
import { joinAnswer, statusActionAnswer } from "@/lib/api/write-answers";
import { runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { runStatusWrite } from "@/lib/domain/signups/status-write";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase } from "@/tests/support/temp-db";

// The /v1 answers of writes are recorded in the write's transaction: the first answer and its replay
// are the same bytes, and a job without `recorded` (the join page, the dashboard) gets values.
const temp = tempDatabase();
afterAll(() => temp.close());
const waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
const actor = { keyId: "key-1", keyName: "ci" };
/** A join job's result, run as the join writer runs a batch of one. */
const runJoinJob = async (job: JoinJob) => {
  const [outcome] = await runJoinJobs([job], joinAnswer, temp.db);
  if ("error" in outcome!) throw outcome.error;
  return outcome!.result;
};

describe("the /v1 write answers", () => {
  it("a join: 201 with the new signup, replayed byte for byte; 200 for an address already on the list", async () => {
    const job = { input: { waitlistId, email: "ada@example.com", customInputs: [] }, recorded: { idempotency: { apiKeyId: "key-1", key: "j1", requestHash: "h1" } } };
    const first = await runJoinJob(job);
    expect(first).toMatchObject({ replayed: false, answer: { code: 201 } });
    const body = JSON.parse((first as { answer: { body: string } }).answer.body);
    expect(Object.keys(body)).toEqual(["email", "verified", "referral", "custom_inputs", "id", "status", "position", "referral_code"]);
    expect(await runJoinJob(job)).toEqual({ replayed: true, answer: (first as { answer: unknown }).answer });
    const again = await runJoinJob({ ...job, recorded: {} });
    expect(again).toEqual({ replayed: false, answer: { code: 200, body: '{"email":"ada@example.com","already_on_list":true,"email_sent":false}' } });
    expect(await runJoinJob({ input: { ...job.input, email: "ADA@example.com" } })).toEqual({ reply: { created: false, email: "ADA@example.com", emailSent: false } });
  });

  it("a status action: 200 with the counts and the changed signups, replayed byte for byte; the dashboard's job gets the counts", async () => {
    const job = { actor, action: "invite" as const, selection: { waitlistId, emails: ["ada@example.com"] }, recorded: { idempotency: { key: "s1", requestHash: "h2" } } };
    const first = await runStatusWrite(job, statusActionAnswer, temp.db);
    expect(first).toMatchObject({ replayed: false, answer: { code: 200 } });
    const body = JSON.parse((first as { answer: { body: string } }).answer.body);
    expect(body).toMatchObject({ changed: 1, skipped: 0, signups: [{ email: "ada@example.com", status: "invited" }] });
    expect(await runStatusWrite(job, statusActionAnswer, temp.db)).toEqual({ replayed: true, answer: (first as { answer: unknown }).answer });
    expect(await runStatusWrite({ actor, action: "withdraw", selection: { waitlistId, emails: ["ada@example.com"] } }, statusActionAnswer, temp.db)).toEqual({ counts: { changed: 1, skipped: 0 } });
  });
});
