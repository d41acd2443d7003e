import type { BrowserContext, Page } from "@playwright/test";
import { createApiKey, type Role } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { countSignups } from "@/lib/domain/signups/counts";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { type SignupScope } from "@/lib/domain/signups/filter";
import type { SignupStatus } from "@/lib/domain/signups/status";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { seedSignups } from "./seed-signups";

export const baseURL = process.env.E2E_BASE_URL!;
let sequence = 0;

/** A name no other test uses. */
export function unique(label: string): string {
  sequence += 1;
  return `${label} ${Date.now().toString(36)}${sequence}`;
}

export async function createKey(roles: Role[] = ["waitlist:view"], options: { expiresAt?: Date } = {}) {
  return await createApiKey({ name: unique("e2e key"), roles, expiresAt: options.expiresAt });
}

/** Signs a browser context in without the form (the sign-in tests use the form), with a view key unless told. */
export async function signIn(context: BrowserContext, roles: Role[] = ["waitlist:view"]) {
  const key = await createKey(roles);
  const { token } = await createSession(key.id);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
  return key;
}

export interface FixtureSignup {
  email: string;
  verified: boolean;
  referral: boolean;
  customInputs: unknown[];
  createdAt: Date;
  /** Default `waiting`. */
  status?: SignupStatus;
}

/** Seeds through the app's bulk writer, on either engine. */
export async function insertSignups(waitlistId: string, signups: FixtureSignup[]) {
  await seedSignups(
    waitlistId,
    signups.map((signup) => ({ ...signup, customInputs: JSON.stringify(signup.customInputs), createdAt: signup.createdAt.getTime() })),
  );
}

/**
 * A waitlist with `count` signups: every verified/referral combination occurs, one signup every
 * five hours up to now (so some fall in the last 7 days), and custom inputs of several shapes.
 */
export async function createFixtureWaitlist(count: number, name = unique("Fixture list")) {
  const waitlist = await createWaitlist({ name, website: "https://fixture.example.com/path" });
  const now = Date.now();
  const tag = waitlist.id.slice(0, 6);
  const signups: FixtureSignup[] = Array.from({ length: count }, (_, index) => ({
    email: `${index % 5 === 0 ? "Ann" : "user"}.${String(index).padStart(4, "0")}.${tag}@Example.com`,
    verified: index % 3 !== 0,
    referral: index % 4 === 0,
    customInputs:
      index % 3 === 0
        ? []
        : index % 3 === 1
          ? [
              { label: "Company", value: `Company ${index}` },
              { label: "Role", value: "Engineer" },
            ]
          : [{ plan: "pro", seats: index, tags: ["a", "b"] }],
    createdAt: new Date(now - (count - index) * 5 * 3_600_000),
  }));
  await insertSignups(waitlist.id, signups);
  return { waitlist, signups };
}

export async function counts(scope: SignupScope) {
  return await countSignups(scope);
}

/** The emails the dashboard should show for a view, straight from the query layer. */
export async function expectedEmails(scope: SignupScope, options: { sort?: "created_at" | "email"; direction?: "asc" | "desc"; page?: number; size?: number } = {}) {
  const size = options.size ?? 25;
  return (await listSignupRows({ scope, sort: options.sort, direction: options.direction, offset: ((options.page ?? 1) - 1) * size, limit: size })).map((row) => row.email);
}

/** The emails in the signups table, in order. */
export async function emailsOnPage(page: Page): Promise<string[]> {
  return page.locator("table tbody tr td:first-child a").allTextContents();
}

export function formatCount(count: number): string {
  return new Intl.NumberFormat("en-US").format(count);
}

/** Fails the test if any JavaScript dialog opens (alert, confirm, prompt). */
export function forbidDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (dialog) => {
    opened.push(dialog.message());
    void dialog.dismiss();
  });
  return opened;
}

/**
 * Resolves once React has hydrated the element `selector` names (its props are attached): text typed
 * into a server-rendered field before hydration can be overwritten or doubled by it.
 */
export async function hydrated(page: Page, selector: string) {
  await page.waitForFunction((css) => Object.keys(document.querySelector(css) ?? {}).some((key) => key.startsWith("__reactProps")), selector);
}
