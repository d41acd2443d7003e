// The columns an import reads (lib/import): here, free of the server and of zod, so that the import
// page can show which column of a chosen file becomes what before anything is sent.

/** The signup fields a file may carry (CSV columns, JSON keys); the CSV export writes these columns (csv.ts). */
export const IMPORT_FIELDS = ["email", "verified", "referral", "custom_inputs", "created_at", "status", "status_changed_at"] as const;

/** Maps a CSV header to column positions; extra columns become custom_inputs entries. */
export interface CsvLayout {
  email: number;
  verified: number;
  referral: number;
  customInputs: number;
  createdAt: number;
  status: number;
  statusChangedAt: number;
  extras: { index: number; label: string }[];
}

/** The signup field a header cell names (any case, surrounding spaces ignored), if any. */
function signupField(name: string): (typeof IMPORT_FIELDS)[number] | undefined {
  const lower = name.toLowerCase();
  return IMPORT_FIELDS.find((field) => field === lower);
}

/**
 * Header cells are trimmed; the signup fields match in any case (spreadsheet exports write "Email"),
 * and any other column keeps its name as written, as the label of its custom_inputs entries.
 */
export function csvLayout(header: string[]): CsvLayout | { error: string } {
  const names = header.map((name) => name.trim());
  const empty = names.findIndex((name) => name === "");
  if (empty !== -1) return { error: `column ${empty + 1} of the header has no name` };
  const keys = names.map((name) => signupField(name) ?? name);
  const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
  if (repeated) return { error: `the header names the column "${repeated}" twice` };
  const email = keys.indexOf("email");
  if (email === -1) return { error: `the header has no "email" column (expected ${IMPORT_FIELDS.join(",")})` };
  return {
    email,
    verified: keys.indexOf("verified"),
    referral: keys.indexOf("referral"),
    customInputs: keys.indexOf("custom_inputs"),
    createdAt: keys.indexOf("created_at"),
    status: keys.indexOf("status"),
    statusChangedAt: keys.indexOf("status_changed_at"),
    extras: names.flatMap((label, index) => (signupField(label) ? [] : [{ index, label }])),
  };
}

