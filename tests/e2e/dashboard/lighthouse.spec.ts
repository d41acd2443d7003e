import { chromium, expect, test } from "@playwright/test";
import lighthouse from "lighthouse";
import { chromiumArgs } from "@/playwright.config";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { personPagePath } from "@/lib/domain/verification/email";
import { createSession } from "@/lib/domain/sessions";
import { createFixtureWaitlist, createKey } from "../support/support";
import { freePort } from "@/tests/support/free-port";

// Issue 33's judges: Lighthouse (its accessibility and best-practices categories) scores 100 on the
// sign-in page, the overview, a waitlist, its join page and a person's own page. Lighthouse drives
// Debian's Chromium, launched by Playwright with a debugging port; a signed-in page gets the session
// cookie as a request header.


const pages: { name: string; path: string; session?: string }[] = [];

test.beforeAll(async () => {
  const { waitlist } = await createFixtureWaitlist(40);
  await updateJoinSettings(waitlist.id, { joining: "open", headline: "Be first in line" }, CLI_ACTOR);
  const signup = (await listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 0, limit: 1 }))[0]!;
  const { token } = await createSession((await createKey(["waitlist:admin"])).id);
  pages.push(
    { name: "sign-in", path: "/signin" },
    { name: "overview", path: "/", session: token },
    { name: "a waitlist", path: `/waitlists/${waitlist.id}`, session: token },
    { name: "the join page", path: `/join/${waitlist.id}` },
    { name: "a person's page", path: await personPagePath(waitlist.id, signup.id) },
  );
});

test("Lighthouse: accessibility and best practices 100 on sign-in, overview, a waitlist, the join page and a person's page", async ({ baseURL }) => {
  test.setTimeout(600_000);
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: [...chromiumArgs, `--remote-debugging-port=${port}`] });
  try {
    for (const { name, path, session } of pages) {
      const result = await lighthouse(`${baseURL}${path}`, {
        port,
        onlyCategories: ["accessibility", "best-practices"],
        logLevel: "error",
        ...(session ? { extraHeaders: { Cookie: `${SESSION_COOKIE}=${session}` } } : {}),
      });
      const report = result!.lhr;
      expect(report.runtimeError?.message, name).toBeUndefined();
      // Signed in, the page is itself (not the sign-in page it would redirect to).
      expect(new URL(report.finalDisplayedUrl).pathname, name).toBe(path.split("?")[0]);
      const failing = Object.values(report.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && (audit.scoreDisplayMode === "binary" || audit.scoreDisplayMode === "numeric"))
        .map((audit) => `${audit.id}: ${audit.title} ${JSON.stringify((audit.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items?.map((item) => item.node?.snippet) ?? [])}`);
      const scores = Object.fromEntries(Object.values(report.categories).map((category) => [category.id, Math.round((category.score ?? 0) * 100)]));
      expect({ scores, failing }, name).toEqual({ scores: { accessibility: 100, "best-practices": 100 }, failing: [] });
    }
  } finally {
    await browser.close();
  }
});
