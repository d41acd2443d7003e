// The join page's accent colour: the button's background behind white text, on the light page.
// WCAG AA asks 4.5:1 for text, so a colour below that against either is refused (the ratio named).

export const ACCENT_COLOR_PATTERN = /^#[0-9a-f]{6}$/;
export const MIN_CONTRAST = 4.5;
/** The accent of a waitlist that chose none: the app's blue. */
export const DEFAULT_ACCENT_COLOR = "#1d4ed8";

/** What the accent is read against: the button's text and the page around the card (Tailwind's white and zinc-50). */
const BUTTON_TEXT = "#ffffff";
const PAGE_BACKGROUND = "#fafafa";

/** WCAG 2's relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [red, green, blue] = [1, 3, 5].map((start) => {
    const channel = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
}

/** WCAG 2's contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Why this accent colour would make the page hard to read, or undefined when it passes (`hex` is `#rrggbb`, lower case). */
export function accentContrastProblem(hex: string): string | undefined {
  const ratio = Math.min(contrastRatio(hex, BUTTON_TEXT), contrastRatio(hex, PAGE_BACKGROUND));
  if (ratio >= MIN_CONTRAST) return undefined;
  // Floored, so a colour just short of 4.5 never reads as "4.5:1".
  return `the accent colour ${hex} has a contrast of ${(Math.floor(ratio * 100) / 100).toFixed(2)}:1 against the button's white text and the page; WCAG AA needs ${MIN_CONTRAST}:1, so choose a darker colour`;
}
