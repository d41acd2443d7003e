import { expect, test } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { listSchedules } from "@/lib/domain/invitations/schedules/store";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { baseURL, insertSignups, signIn, unique } from "../support/support";

// Paced invitations in the dashboard: from the invitation email's page to the schedules, an admin
// adds one (a rule it cannot read is refused, saying why), sees who its next run would take, pauses,
// resumes and removes it; each change audited.

test("an admin adds a schedule, sees its preview, pauses, resumes and removes it", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Paced list"), website: "https://paced.example" });
  const tag = waitlist.id.slice(0, 6);
  await insertSignups(
    waitlist.id,
    Array.from({ length: 6 }, (_, index) => ({ email: `p${index}.${tag}@example.com`, verified: index % 2 === 0, referral: false, customInputs: [], createdAt: new Date(Date.UTC(2026, 0, 1 + index)) })),
  );

  await page.goto(`/waitlists/${waitlist.id}/email`);
  await page.getByRole("link", { name: "Paced invitations" }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/schedules`);
  await expect(page.getByText("No schedule yet.")).toBeVisible();

  await page.getByLabel("New schedule").fill("weekdays at 09:00 Europe/Berlin invite 2 where verified=true");
  await page.getByRole("button", { name: "Add schedule" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Schedule added.");
  const schedule = page.getByTestId("schedule");
  await expect(schedule.getByTestId("schedule-rule")).toHaveText("weekdays at 09:00 Europe/Berlin invite 2 where verified=true");
  await expect(schedule.getByTestId("schedule-state")).toContainText("Next run ");
  await expect(schedule.getByTestId("schedule-state")).toContainText("not run yet");
  await expect(schedule.getByTestId("schedule-preview")).toHaveText(`Were it now, it would invite 2: p0.${tag}@example.com, p2.${tag}@example.com.`);

  await schedule.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Schedule paused.");
  await expect(page.getByTestId("schedule-state")).toHaveText("Paused; not run yet.");
  await page.getByTestId("schedule").getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Schedule resumed.");
  await expect(page.getByTestId("schedule-state")).toContainText("Next run ");

  // A rule it cannot read: a 400 that says why, nothing added.
  const refused = await page.request.post(`/waitlists/${waitlist.id}/schedules/save`, { form: { action: "add", rule: "someday at 09:00 invite 5" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('unknown days "someday"');
  expect(await listSchedules(waitlist.id)).toHaveLength(1);

  await page.getByTestId("schedule").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Schedule removed.");
  await expect(page.getByText("No schedule yet.")).toBeVisible();
  const id = (await listAudit({ action: "waitlist.schedules", actor: admin.id, limit: 10 })).map((row) => row.summary);
  expect(id).toHaveLength(4);
  expect(id[3]).toMatch(/^added schedule \d+: weekdays at 09:00 Europe\/Berlin invite 2 where verified=true$/);
});
