import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { joinLogoOf, joinLogoVersion, MAX_LOGO_BYTES, setJoinLogo } from "@/lib/domain/branding/logo";
import { deleteWaitlistAs } from "@/lib/domain/waitlists/manage";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const png = new Uint8Array(readFileSync("tests/support/images/logo.png"));
const webp = new Uint8Array(readFileSync("tests/support/images/logo.webp"));

describe("join page logo", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
  });
  afterEach(() => temp.close());

  it("stores the bytes with the type they show, replaces and removes them, each audited", async () => {
    expect(await joinLogoOf(waitlistId, temp.db)).toBeUndefined();
    await setJoinLogo(waitlistId, png, "cli", temp.db);
    expect(await joinLogoOf(waitlistId, temp.db)).toMatchObject({ contentType: "image/png", bytes: Buffer.from(png) });
    await setJoinLogo(waitlistId.toUpperCase(), webp, "cli", temp.db);
    expect((await joinLogoOf(waitlistId, temp.db))?.contentType).toBe("image/webp");
    expect(await joinLogoVersion(waitlistId, temp.db)).toBe((await joinLogoOf(waitlistId, temp.db))!.updatedAt.getTime());
    await setJoinLogo(waitlistId, null, "cli", temp.db);
    await setJoinLogo(waitlistId, null, "cli", temp.db);
    expect(await joinLogoOf(waitlistId, temp.db)).toBeUndefined();
    expect((await listAudit({ action: "waitlist.join_settings", limit: 10 }, temp.db)).map((row) => row.summary)).toEqual(["logo removed", "logo set (image/webp, 1 KB)", "logo set (image/png, 3 KB)"]);
  });

  it.each([
    ["an empty file", new Uint8Array(), "Invalid logo: the file is empty."],
    ["a file that is not an image", new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"), "Invalid logo: the file is not a PNG, JPEG or WebP image."],
    ["a broken PNG", png.slice(0, 24), "Invalid logo: the file starts like an image but is broken (its header is cut short or gives no size)."],
    ["a file over 200 KB", new Uint8Array(MAX_LOGO_BYTES + 1).fill(7), "Invalid logo: the file has 204,801 bytes, more than the 200 KB a logo may have."],
  ])("refuses %s, saying why, and changes nothing", async (_case, bytes, message) => {
    await setJoinLogo(waitlistId, png, "cli", temp.db);
    await expect(setJoinLogo(waitlistId, bytes, "cli", temp.db)).rejects.toThrow(message);
    expect((await joinLogoOf(waitlistId, temp.db))?.contentType).toBe("image/png");
    expect(await listAudit({ action: "waitlist.join_settings", limit: 10 }, temp.db)).toHaveLength(1);
  });

  it("refuses an unknown waitlist, and goes with its waitlist", async () => {
    await expect(setJoinLogo("00000000-0000-4000-8000-000000000000", png, "cli", temp.db)).rejects.toThrow("No waitlist has the id");
    await setJoinLogo(waitlistId, png, "cli", temp.db);
    await deleteWaitlistAs("cli", waitlistId, { confirm: "Acme Beta" }, temp.db);
    expect(temp.db.$client.prepare("SELECT count(*) AS n FROM join_logos").get()).toEqual({ n: 0 });
  });
});
