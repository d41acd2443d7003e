import { csvLayout, IMPORT_FIELDS } from "@/lib/domain/signups/import-columns";

/** How much of a chosen file the preview reads: enough for the header and a few rows. */
export const PREVIEW_BYTES = 64 * 1024;
const PREVIEW_ROWS = 5;

export interface FilePreview {
  /** Each column (CSV) or key (JSON) of the file and what the import makes of it. */
  columns: { name: string; becomes: string }[];
  rows: string[][];
  /** Why the import would refuse the file as it begins, if it would. */
  problem?: string;
}

/** Records of CSV text (quotes, doubled quotes, CRLF); the last one is dropped when the text stops mid-file. */
function csvRecords(text: string, delimiter: string, complete: boolean, limit: number): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let at = 0; at < text.length && records.length < limit; at++) {
    const char = text[at]!;
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        cell += '"';
        at++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === delimiter) {
      record.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[at + 1] === "\n") at++;
      record.push(cell);
      if (record.some((value) => value !== "")) records.push(record);
      record = [];
      cell = "";
    } else cell += char;
  }
  if (complete && records.length < limit && (cell !== "" || record.length > 0)) records.push([...record, cell]);
  return records;
}

/**
 * What the import will make of a file, from its first bytes: for CSV the header's mapping (the
 * import's own csvLayout) and the first rows; for NDJSON or a small JSON array, the keys of the first objects.
 */
export function previewFile(name: string, text: string, complete: boolean, delimiter = ","): FilePreview {
  if (/\.csv$/i.test(name)) {
    const [header, ...rows] = csvRecords(text.replace(/^\uFEFF/, ""), delimiter, complete, PREVIEW_ROWS + 1);
    if (!header) return { columns: [], rows: [], problem: "The file is empty." };
    const layout = csvLayout(header);
    const becomes = (cell: string) => (IMPORT_FIELDS as readonly string[]).includes(cell.trim().toLowerCase()) ? cell.trim().toLowerCase() : `custom input “${cell.trim()}”`;
    return { columns: header.map((cell) => ({ name: cell, becomes: becomes(cell) })), rows, problem: "error" in layout ? `The import would refuse this file: ${layout.error}.` : undefined };
  }
  let objects: unknown[];
  try {
    const trimmed = text.trimStart();
    if (trimmed.startsWith("[")) {
      if (!complete) return { columns: [], rows: [], problem: "A JSON array is previewed only when small: NDJSON or CSV shows its first rows at any size." };
      objects = (JSON.parse(trimmed) as unknown[]).slice(0, PREVIEW_ROWS);
    } else {
      const lines = trimmed.split("\n").filter((line) => line.trim() !== "");
      objects = lines.slice(0, complete ? PREVIEW_ROWS : Math.min(PREVIEW_ROWS, lines.length - 1)).map((line) => JSON.parse(line) as unknown);
    }
  } catch {
    return { columns: [], rows: [], problem: "The start of the file is not valid JSON." };
  }
  const keys = [...new Set(objects.flatMap((object) => (object && typeof object === "object" ? Object.keys(object) : [])))];
  const known = (key: string) => (IMPORT_FIELDS as readonly string[]).includes(key);
  const unknown = keys.filter((key) => !known(key));
  return {
    columns: keys.map((key) => ({ name: key, becomes: known(key) ? key : "refused: not a signup field" })),
    rows: objects.map((object) => keys.map((key) => JSON.stringify((object as Record<string, unknown>)[key] ?? ""))),
    problem: unknown.length > 0 ? `The import would refuse these keys: ${unknown.join(", ")} (custom inputs go in custom_inputs).` : undefined,
  };
}
