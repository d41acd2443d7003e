import type { AuditActor } from "../audit/log";

// What an import running on its own thread reports (lib/import/import-thread.ts), and what the
// dashboard's upload streams to the browser, one JSON object per line.

export type ImportProgressPhase = "importing" | "validating" | "deriving";

export type ImportEvent =
  /** The whole file is on disk (`bytes` of it): the import starts. */
  | { type: "received"; bytes: number }
  | { type: "progress"; phase: ImportProgressPhase; bytesRead: number; totalBytes: number; rows: number }
  | { type: "done"; imported: number; skipped_duplicates: number }
  /** Invalid rows: nothing was imported. `errors` are the first ten ("line N: …"), of `invalid` in all. */
  | { type: "invalid"; invalid: number; errors: string[] }
  /** Any other refusal (an unknown waitlist, a malformed delimiter, the database busy): nothing was imported. */
  | { type: "failed"; message: string };

/** The final events: the import is over. */
export type ImportOutcome = Extract<ImportEvent, { type: "done" | "invalid" | "failed" }>;

/** What the thread is given. */
export interface ImportJob {
  waitlistId: string;
  path: string;
  delimiter?: string;
  actor: AuditActor;
}

/** Runs an import off the serving thread: the production server installs one (lib/server/import-runner.ts). */
export type ImportRunner = (job: ImportJob, onEvent: (event: ImportEvent) => void) => Promise<ImportOutcome>;

/** Where the production server leaves its runner: route handlers live in another module graph. */
export const IMPORT_RUNNER_KEY = "__waitlistImportRunner";
