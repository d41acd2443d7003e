/** One custom input as the filters and facets read it (see the view `signup_input_pairs`, migration 0003). */
export interface InputPair {
  label: string;
  value: string;
}

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** A value as text: a string as itself, a number or boolean as its JSON text (what SQLite's `->` gives). */
function valueText(value: Scalar): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The (label, value) pairs of a signup's parsed custom inputs, computed in JavaScript exactly as the
 * SQL view `signup_input_pairs` does for the same JSON text (tests/unit/lib/domain/signups/bulk-insert.test.ts checks
 * both agree): an object with a string `label` and a scalar `value` gives that pair, any other object
 * one pair per scalar property; nulls, arrays and nested objects give none. Repeated pairs come once.
 * Numbers follow JSON.stringify, so the stored JSON must be JSON.stringify's (every writer's is).
 */
export function inputPairs(inputs: unknown): InputPair[] {
  if (!Array.isArray(inputs)) return [];
  const pairs: InputPair[] = [];
  const seen = new Set<string>();
  const add = (label: string, value: Scalar) => {
    const text = valueText(value);
    const key = `${label}\u0000${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    pairs.push({ label, value: text });
  };
  for (const item of inputs) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const object = item as Record<string, unknown>;
    if (typeof object.label === "string" && isScalar(object.value)) {
      add(object.label, object.value);
      continue;
    }
    for (const [label, value] of Object.entries(object)) if (isScalar(value)) add(label, value);
  }
  return pairs;
}
