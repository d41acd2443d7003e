import type { ImportFormat, ReadOptions } from "./formats";
import type { ImportRecord } from "./row";

/** What the reading thread is asked to read (lib/import/read-thread.ts). */
export interface FileReadJob {
  format: ImportFormat;
  /** The file, open in this process (threads share its descriptors). */
  fd: number;
  options: ReadOptions;
}

/** What it posts back: batches of records in file order, then the end or an error. */
export type FileReadMessage =
  | { type: "batch"; records: ImportRecord[]; bytesRead: number }
  | { type: "end" }
  | { type: "error"; message: string; code?: string };
