import { describe, expect, it } from "vitest";
import { NewKeyReveal } from "@/lib/dashboard/new-key-reveal";

describe("NewKeyReveal", () => {
  it("gives the key back once, to the session that created it", () => {
    const reveal = new NewKeyReveal<string>();
    const ticket = reveal.hold("wl_secret", "session-key");
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(reveal.take(ticket, "another-key")).toBeUndefined();
    expect(reveal.take(ticket, "session-key")).toBe("wl_secret");
    expect(reveal.take(ticket, "session-key")).toBeUndefined();
    expect(reveal.take("made-up", "session-key")).toBeUndefined();
    expect(reveal.take(undefined, "session-key")).toBeUndefined();
  });

  it("forgets a key after five minutes", () => {
    const reveal = new NewKeyReveal<string>();
    const ticket = reveal.hold("wl_secret", "s", 0);
    expect(reveal.take(ticket, "s", 5 * 60_000)).toBeUndefined();
    const fresh = reveal.hold("wl_other", "s", 0);
    expect(reveal.take(fresh, "s", 5 * 60_000 - 1)).toBe("wl_other");
  });
});
