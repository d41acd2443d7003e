import { afterAll, describe, expect, it } from "vitest";
import { readPublicForm, waitlistOfPath } from "@/lib/join/public-form";
import { PUBLIC_FORM_MAX_BYTES } from "@/lib/http/body-limit";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase } from "@/tests/support/temp-db";

// The join pages read the app's database (getDb): point it at a fresh file first.
const temp = tempDatabase();
process.env.DATABASE_PATH = temp.path;
afterAll(() => temp.close());

const ORIGIN = "http://127.0.0.1:3000";
const waitlist = await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db);
const post = (pathId: string, body: string, headers: Record<string, string> = {}) =>
  readPublicForm(new Request(`${ORIGIN}/join/${pathId}/submit`, { method: "POST", headers: { host: "127.0.0.1:3000", origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", ...headers }, body }), pathId);

async function expectRefused(answer: Promise<unknown>, status: number, text: RegExp) {
  const response = await answer;
  expect(response).toBeInstanceOf(Response);
  expect((response as Response).status).toBe(status);
  expect(await (response as Response).text()).toMatch(text);
}

describe("the join pages' waitlist and forms", () => {
  it("finds the waitlist of a path in any case, and none for a malformed or unknown id", async () => {
    expect((await waitlistOfPath(waitlist.id.toUpperCase()))?.id).toBe(waitlist.id);
    expect(await waitlistOfPath("not-an-id")).toBeUndefined();
    expect(await waitlistOfPath("00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });

  it("refuses in order: an unknown waitlist (404, even cross-site), a cross-site post (403), a body past the limit (413)", async () => {
    await expectRefused(post("00000000-0000-4000-8000-000000000000", "email=a", { origin: "https://evil.example" }), 404, /^Not found: this waitlist does not exist\.\n$/);
    await expectRefused(post(waitlist.id, "email=a", { origin: "https://evil.example" }), 403, /evil\.example/);
    await expectRefused(post(waitlist.id, "x".repeat(PUBLIC_FORM_MAX_BYTES + 1)), 413, /^Payload Too Large/);
  });

  it("gives the waitlist and the form, or 'invalid' for a body that is not a form", async () => {
    const read = await post(waitlist.id, "email=ada%40example.com");
    expect(read).toMatchObject({ waitlist: { id: waitlist.id } });
    expect((read as { form: FormData }).form.get("email")).toBe("ada@example.com");
    expect(await post(waitlist.id, "{}", { "content-type": "application/json" })).toMatchObject({ form: "invalid" });
  });
});
