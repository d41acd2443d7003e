/** One readable line of a signup's custom inputs. */
export interface CustomInputEntry {
  key: string;
  value: string;
  /** The value is JSON (an object or array) and reads best preformatted. */
  structured: boolean;
}

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
 */
export function describeCustomInputs(inputs: readonly unknown[]): CustomInputEntry[] {
  const entries: CustomInputEntry[] = [];
  inputs.forEach((input, index) => {
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      entries.push({ key: `Item ${index + 1}`, ...describeValue(input) });
      return;
    }
    const fields = Object.entries(input as Record<string, unknown>);
    const record = input as Record<string, unknown>;
    const labelled = "label" in record && "value" in record && isLabel(record.label);
    if (labelled) entries.push({ key: String(record.label), ...describeValue(record.value) });
    for (const [key, value] of fields) {
      if (labelled && (key === "label" || key === "value")) continue;
      entries.push({ key, ...describeValue(value) });
    }
    if (fields.length === 0) entries.push({ key: `Item ${index + 1}`, value: "{}", structured: true });
  });
  return entries;
}
