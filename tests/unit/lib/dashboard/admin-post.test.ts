import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { adminPost, adminRoute, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { ADMIN_ROLE, createApiKey, revokeApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { tempDatabase } from "@/tests/support/temp-db";

// adminPost looks sessions up in the app's database (getDb): point it at a fresh file first.
const temp = tempDatabase();
process.env.DATABASE_PATH = temp.path;
afterAll(() => temp.close());

const ORIGIN = "http://127.0.0.1:3000";
const adminKey = await createApiKey({ name: "admin", roles: [ADMIN_ROLE] }, temp.db);
const viewKey = await createApiKey({ name: "viewer", roles: [VIEW_ROLE] }, temp.db);
const adminToken = (await createSession(adminKey.id, temp.db)).token;
const viewToken = (await createSession(viewKey.id, temp.db)).token;

const calls: unknown[] = [];
const handle = adminPost(z.object({ name: z.string().trim().min(1, "must not be empty") }), ({ input, session }) => {
  calls.push({ input, actor: auditActorOf(session) });
  if (input.name === "missing") throw new AppError("not_found", "No such thing");
  return seeOther("/keys?done=created");
});

function post(fields: Record<string, string> | string, headers: Record<string, string> = {}) {
  const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  return handle(
    new Request(`${ORIGIN}/keys/create`, {
      method: "POST",
      headers: { host: "127.0.0.1:3000", origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie: `${SESSION_COOKIE}=${adminToken}`, ...headers },
      body,
    }),
    {},
  );
}

async function expectRefused(response: Promise<Response>, status: number, text: RegExp) {
  const answer = await response;
  expect(answer.status).toBe(status);
  expect(await answer.text()).toMatch(text);
}

describe("adminPost", () => {
  it("runs the handler with the parsed form and the session's actor, and returns its response", async () => {
    calls.length = 0;
    const response = await post({ name: "  ci  " });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/keys?done=created");
    expect(calls).toEqual([{ input: { name: "ci" }, actor: { keyId: adminKey.id, keyName: "admin" } }]);
  });

  it("refuses a cross-site request with 403 before looking at the session or the form", async () => {
    calls.length = 0;
    await expectRefused(post({ name: "x" }, { origin: "http://evil.example" }), 403, /comes from http:\/\/evil\.example/);
    await expectRefused(post({ name: "x" }, { origin: "http://evil.example", cookie: "" }), 403, /Refused/);
    expect(calls).toEqual([]);
  });

  it("sends a request without a valid session to sign in (303), back to the posting page", async () => {
    const response = await post({ name: "x" }, { cookie: "", referer: `${ORIGIN}/keys` });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin?next=%2Fkeys");
    const revoked = await createApiKey({ name: "gone", roles: [ADMIN_ROLE] }, temp.db);
    const token = (await createSession(revoked.id, temp.db)).token;
    await revokeApiKey(revoked.id, temp.db);
    const ended = await post({ name: "x" }, { cookie: `${SESSION_COOKIE}=${token}`, referer: "http://evil.example/x" });
    expect(ended.headers.get("location")).toBe("/signin?reason=revoked");
  });

  it("refuses a view session with 403 saying why", async () => {
    calls.length = 0;
    await expectRefused(post({ name: "x" }, { cookie: `${SESSION_COOKIE}=${viewToken}` }), 403, /does not carry the waitlist:admin role/);
    expect(calls).toEqual([]);
  });

  it("refuses invalid input with 400 naming the field, and a form it cannot read", async () => {
    calls.length = 0;
    await expectRefused(post({ name: "   " }), 400, /^Invalid name: must not be empty\. Nothing was changed\./);
    await expectRefused(post({}), 400, /^Invalid name:/);
    await expectRefused(post("name=a&name=b"), 400, /expected an HTML form/);
    await expectRefused(post("{}", { "content-type": "application/json" }), 400, /expected an HTML form/);
    expect(calls).toEqual([]);
  });

  it("maps an AppError of the handler to its status", async () => {
    await expectRefused(post({ name: "missing" }), 404, /No such thing\. Nothing was changed\./);
  });
});

describe("adminRoute", () => {
  const route = adminRoute(({ session }) => {
    if (session.key.name === "admin") throw new AppError("not_found", "No waitlist has that id");
    return new Response("written");
  }, "");
  const request = (token: string, origin = ORIGIN) => new Request(`${ORIGIN}/waitlists/x/import/upload`, { method: "POST", headers: { host: "127.0.0.1:3000", origin, cookie: `${SESSION_COOKIE}=${token}` } });

  it("makes the admin checks of adminPost, then maps what the handler throws with its own 'nothing done'", async () => {
    await expectRefused(route(request(adminToken, "http://evil.example"), {}), 403, /comes from http:\/\/evil\.example/);
    await expectRefused(route(request(viewToken), {}), 403, /does not carry the waitlist:admin role/);
    await expectRefused(route(request(adminToken), {}), 404, /^No waitlist has that id\.\n$/);
  });
});
