import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_ROLE, createApiKey, rolesGrant, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { checkSignInKey, createSession, lookupSession } from "@/lib/domain/sessions";
import { tempDatabase, type TempDatabase } from "./temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

describe("roles", () => {
  it("an admin role includes view; view does not include admin; unknown roles grant nothing", () => {
    expect(rolesGrant([ADMIN_ROLE], VIEW_ROLE)).toBe(true);
    expect(rolesGrant([ADMIN_ROLE], ADMIN_ROLE)).toBe(true);
    expect(rolesGrant([VIEW_ROLE], ADMIN_ROLE)).toBe(false);
    expect(rolesGrant([VIEW_ROLE], VIEW_ROLE)).toBe(true);
    expect(rolesGrant(["waitlist:owner", "constructor", "__proto__"], VIEW_ROLE)).toBe(false);
    expect(rolesGrant([], VIEW_ROLE)).toBe(false);
  });

  it("an admin key passes the API's view check and signs in; a view key fails an admin check", () => {
    const admin = createApiKey({ name: "admin", roles: [ADMIN_ROLE] }, temp.db);
    const viewer = createApiKey({ name: "viewer", roles: [VIEW_ROLE] }, temp.db);
    expect(verifyApiKey(admin.key, VIEW_ROLE, temp.db).ok).toBe(true);
    expect(verifyApiKey(admin.key, ADMIN_ROLE, temp.db).ok).toBe(true);
    expect(verifyApiKey(viewer.key, ADMIN_ROLE, temp.db)).toMatchObject({ ok: false, reason: "forbidden" });
    expect(checkSignInKey(admin.key, temp.db)).toEqual({ ok: true, apiKeyId: admin.id });
  });

  it("a session of an admin-only key stays valid (it holds view through admin)", () => {
    const admin = createApiKey({ name: "admin", roles: [ADMIN_ROLE] }, temp.db);
    const { token } = createSession(admin.id, temp.db);
    const lookup = lookupSession(token, temp.db);
    expect(lookup.ok && lookup.session.key.roles).toEqual([ADMIN_ROLE]);
  });
});
