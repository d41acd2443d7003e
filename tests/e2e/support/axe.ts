import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The rules of the accessibility sweeps: WCAG 2.2 A and AA, and axe's best practices. */
export const SWEEP_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"];

/**
 * Fails with every axe violation on the page, each with its nodes: of the rules `tags` names (axe's
 * default rules otherwise), and only the serious and critical ones with `seriousOnly`. `exclude`
 * leaves out what axe cannot enter (a frame with sandbox="", where no script runs: check its
 * document on a page of its own).
 */
export async function expectNoAxeViolations(page: Page, label: string, { tags, seriousOnly = false, exclude }: { tags?: string[]; seriousOnly?: boolean; exclude?: string } = {}) {
  const builder = new AxeBuilder({ page });
  if (exclude) builder.exclude(exclude);
  const { violations } = await (tags ? builder.withTags(tags) : builder).analyze();
  const counted = seriousOnly ? violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical") : violations;
  expect(
    counted.map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`),
    label,
  ).toEqual([]);
}

/** The page has hydrated and nothing is loading any more. */
export async function settled(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
}
