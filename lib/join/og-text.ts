// The Open Graph card is drawn with the font Next.js bundles (Latin only). For any character that
// font lacks, next/og would fetch a font or an emoji from Google Fonts or a CDN: the card leaves
// those characters out instead, so drawing it never asks a third party (the page itself shows them).

const DRAWABLE = /[^\u0020-\u007e\u00a0-\u017f\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026]/gu;

/** The text with only what the bundled font draws, trimmed to `max` characters (an ellipsis when cut). */
export function drawableText(text: string, max: number): string {
  const drawable = text.replace(DRAWABLE, "").replace(/\s+/g, " ").trim();
  return drawable.length > max ? `${drawable.slice(0, max - 1).trimEnd()}…` : drawable;
}
