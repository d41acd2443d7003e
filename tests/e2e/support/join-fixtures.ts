import { expect, type Page } from "@playwright/test";
import type { AppDatabase } from "@/db/client";
import { updateJoinSettings, type JoinSettingsChange } from "@/lib/domain/joining/settings";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { unique } from "./support";

/** A new waitlist whose joining is open, with these settings (the challenge off unless said: the no-JS path). */
export async function openWaitlist(settings: JoinSettingsChange = {}, db?: AppDatabase) {
  const waitlist = await createWaitlist({ name: unique("Join list"), website: "https://join.example" }, db);
  await updateJoinSettings(waitlist.id, { joining: "open", challenge: false, ...settings }, "cli", db);
  return waitlist;
}

/** The signups of a waitlist, oldest first. */
export async function signupsOf(waitlistId: string, db?: AppDatabase) {
  return await listSignupRows({ scope: { waitlistId }, sort: "created_at", direction: "asc", offset: 0, limit: 100 }, db);
}

/** Fills the join form's address and joins; resolves on the page that says the place in line. */
export async function joinThroughForm(page: Page, email: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Join the waitlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("in line");
}

/** Fills the join form's address and submits it; resolves on /join/{id}/joined, whatever it says. */
export async function submitJoinForm(page: Page, email: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Join the waitlist" }).click();
  await page.waitForURL(/\/join\/[0-9a-f-]{36}\/joined$/);
}
