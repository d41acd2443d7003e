import { describe, expect, it } from "vitest";
import { sessionCookieName, sessionCookieOptions } from "@/lib/dashboard/session-cookie";
import { SESSION_COOKIE_GRACE_MS } from "@/lib/domain/session-lifetime";

describe("the session cookie", () => {
  it("is __Host- prefixed and Secure over HTTPS, with Path=/ and no Domain, and outlives the session by the grace", () => {
    expect(sessionCookieName(true)).toBe("__Host-wl_session");
    expect(sessionCookieName(false)).toBe("wl_session");
    const expiresAt = new Date("2030-01-01T12:00:00Z");
    const options = sessionCookieOptions(expiresAt, true);
    expect(options).toEqual({ httpOnly: true, sameSite: "lax", secure: true, path: "/", expires: new Date(expiresAt.getTime() + SESSION_COOKIE_GRACE_MS) });
    expect(options).not.toHaveProperty("domain");
  });
});
