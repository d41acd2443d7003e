// Words that prose (the OpenAPI document, the docs, messages) builds from a definition's lists and
// numbers, so that a sentence naming "every status" or "the default" follows the definition.

const and = new Intl.ListFormat("en-GB", { type: "conjunction" });
const or = new Intl.ListFormat("en-GB", { type: "disjunction" });

/** `a, b and c` (no serial comma, as the rest of the prose). */
export function andList(words: readonly string[]): string {
  return and.format(words);
}

/** `a, b or c`. */
export function orList(words: readonly string[]): string {
  return or.format(words);
}

/** Markdown code: `` `text` ``. */
export function code(text: string | number): string {
  return `\`${text}\``;
}

/** A count as prose writes it: 10,000. */
export function count(value: number): string {
  return value.toLocaleString("en");
}
