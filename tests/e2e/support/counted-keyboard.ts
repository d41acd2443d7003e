import type { Page } from "@playwright/test";

// The keyboard-only tasks' key presses (list-keyboard.spec, keyboard-tasks.spec): only page.keyboard
// acts, every press is counted (typed text: one per character), and nothing is focused by script.

/** page.keyboard, counted. */
export class CountedKeyboard {
  presses = 0;
  constructor(private readonly page: Page) {}
  async press(key: string, times = 1) {
    for (let time = 0; time < times; time += 1) {
      this.presses += 1;
      await this.page.keyboard.press(key);
    }
  }
  async type(text: string) {
    this.presses += text.length;
    await this.page.keyboard.type(text);
  }
  /** Tab (or Shift+Tab) until `done` holds for the focused element; fails past `limit` presses. */
  async tabUntil(done: () => Promise<boolean>, { limit = 20, back = false } = {}) {
    for (let tries = 0; tries < limit; tries += 1) {
      await this.press(back ? "Shift+Tab" : "Tab");
      if (await done()) return;
    }
    throw new Error(`the focus never got there in ${limit} presses`);
  }
  /** Arrow down inside a toolbar until the focused item's text starts with `text`. */
  async arrowTo(text: string, limit = 10) {
    for (let tries = 0; tries < limit; tries += 1) {
      if (await this.page.evaluate((start) => document.activeElement?.textContent?.trim().startsWith(start) ?? false, text)) return;
      await this.press("ArrowDown");
    }
    throw new Error(`no ${text} in the toolbar`);
  }
}

/** Whether the focused element is inside what `selector` finds. */
export const focusedIn = (page: Page, selector: string) => () =>
  page.evaluate((css) => document.activeElement !== document.body && document.activeElement?.closest(css) !== null, selector);
