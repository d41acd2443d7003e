/** One readable line of a signup's custom inputs. */
export interface CustomInputEntry {
  key: string;
  value: string;
  /** The value is JSON (an object or array) and reads best preformatted. */
  structured: boolean;
  /** How many characters were cut from the end of the key or the value (absent when shown whole). */
  keyCut?: number;
  valueCut?: number;
}

/** The first entries of a signup's custom inputs, cut to size, and how many entries it has in all. */
export interface CustomInputsPreview {
  entries: CustomInputEntry[];
  total: number;
}

/** How much of a signup's custom inputs one view renders. */
export interface PreviewBounds {
  /** At most this many entries… */
  entries: number;
  /** …and no entry after this many characters of keys and values are shown. */
  totalChars: number;
  keyChars: number;
  valueChars: number;
}

// A record may hold 25,000 inputs or a value of a megabyte: each view renders a bounded part and
// links to the rest. A character shown costs 2 bytes (the HTML and the page's inline React payload)
// and at worst 10 ("<" is "&lt;" in the HTML and "\u003c" in the payload); an entry's markup about
// 1 KB at worst. The signup's page: at most 8,260 characters in 50 entries, under 200 KB at worst
// (tests/e2e/dashboard/huge-signup.spec.ts). A row of the list page (its cell and its dialog): a few KB.
export const SIGNUP_PAGE_BOUNDS: PreviewBounds = { entries: 50, totalChars: 8_000, keyChars: 60, valueChars: 200 };
export const LIST_ROW_BOUNDS: PreviewBounds = { entries: 10, totalChars: 1_000, keyChars: 60, valueChars: 200 };

function describeValue(value: unknown): { value: string; structured: boolean } {
  if (typeof value === "string") return { value, structured: false };
  if (value === null || typeof value !== "object") return { value: String(value), structured: false };
  return { value: JSON.stringify(value, null, 2), structured: true };
}

function isLabel(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * Custom inputs are arbitrary objects. The common `{label, value}` shape becomes "label: value";
 * any other field becomes "field: value"; nested objects and arrays are shown as indented JSON.
 * The values are described only when taken, so that counting or skipping entries stays cheap.
 */
function* entriesOf(inputs: readonly unknown[]): Generator<() => CustomInputEntry> {
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index];
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      yield () => ({ key: `Item ${index + 1}`, ...describeValue(input) });
      continue;
    }
    const record = input as Record<string, unknown>;
    const labelled = "label" in record && "value" in record && isLabel(record.label);
    if (labelled) yield () => ({ key: String(record.label), ...describeValue(record.value) });
    let fields = 0;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      fields += 1;
      if (labelled && (key === "label" || key === "value")) continue;
      yield () => ({ key, ...describeValue(record[key]) });
    }
    if (fields === 0) yield () => ({ key: `Item ${index + 1}`, value: "{}", structured: true });
  }
}

/** Every entry, whole. */
export function describeCustomInputs(inputs: readonly unknown[]): CustomInputEntry[] {
  return Array.from(entriesOf(inputs), (describe) => describe());
}

/** `text` cut to at most `max` characters (never inside a surrogate pair), and how many were cut. */
function cut(text: string, max: number): { text: string; cut?: number } {
  if (text.length <= max) return { text };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), cut: text.length - end };
}

/** The first entries within `bounds`, keys and values cut to their bounds, and the count of all. */
export function previewCustomInputs(inputs: readonly unknown[], bounds: PreviewBounds): CustomInputsPreview {
  const entries: CustomInputEntry[] = [];
  let total = 0;
  let shown = 0;
  for (const describe of entriesOf(inputs)) {
    total += 1;
    if (entries.length >= bounds.entries || shown >= bounds.totalChars) continue;
    const entry = describe();
    const key = cut(entry.key, bounds.keyChars);
    const value = cut(entry.value, bounds.valueChars);
    shown += key.text.length + value.text.length;
    entries.push({
      key: key.text,
      value: value.text,
      structured: entry.structured,
      ...(key.cut !== undefined && { keyCut: key.cut }),
      ...(value.cut !== undefined && { valueCut: value.cut }),
    });
  }
  return { entries, total };
}

/** Whether a key or a value of the preview was cut. */
export function hasCutText(preview: CustomInputsPreview): boolean {
  return preview.entries.some((entry) => entry.keyCut !== undefined || entry.valueCut !== undefined);
}
