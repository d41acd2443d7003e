// "Safe single-line text": what people type into a form (or an import brings) and the app later puts
// into an email or a page as plain text. It may not hold characters that forge lines or reorder what
// a reader sees: C0 controls (CR, LF, TAB, NUL, …), DEL and C1 controls, the Unicode line and
// paragraph separators, and the bidirectional formatting characters (embeddings, overrides, isolates
// and the left-to-right / right-to-left marks). Joins and imports refuse such text; email
// placeholders insert any stored text through singleLine, so older data cannot forge lines either.

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** What the first unsafe character of `text` is, for a message ("a line break"), or undefined when it has none. */
export function unsafeCharacterIn(text: string): string | undefined {
  const found = UNSAFE.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = found.charCodeAt(0);
  if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return "a line break";
  if (code === 0x09) return "a tab";
  if (code === 0x00) return "a NUL character";
  if (code <= 0x9f) return `a control character (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
  return `a bidirectional text control (U+${code.toString(16).toUpperCase()})`;
}

/** `text` with every run of unsafe characters turned into one space: one line, shown in its own order. */
export function singleLine(text: string): string {
  return text.replace(UNSAFE_RUNS, " ");
}
