import type { AuditActor } from "@/lib/domain/audit/log";
import { processSlot } from "@/lib/core/process-slots";
import type { ImportFormat } from "./options";

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
  /** Any other refusal (an unknown waitlist, the database locked or its disk full, the server stopping): nothing was imported. */
  | { type: "failed"; message: string };

/** The final events: the import is over. */
export type ImportOutcome = Extract<ImportEvent, { type: "done" | "invalid" | "failed" }>;

/** The outcome of an import the server stopped (SIGTERM, SIGINT) before it ended: it was rolled back. */
export const SERVER_STOPPED_MESSAGE = "the server stopped during the import: nothing was imported; upload the file again once it is back";

/**
 * What the thread is given. `fd` is the uploaded file, open in this process (threads share its
 * descriptors) and already without a name (lib/dashboard/upload-file.ts); the caller closes it.
 */
export interface ImportJob {
  waitlistId: string;
  fd: number;
  format: ImportFormat;
  delimiter?: string;
  actor: AuditActor;
}

/** The one message the runner sends a running import: stop, roll back and answer SERVER_STOPPED_MESSAGE. */
export const STOP_IMPORT_MESSAGE = "stop";

/** Runs an import off the serving thread: the production server installs one (lib/server/import-runner.ts). */
export type ImportRunner = (job: ImportJob, onEvent: (event: ImportEvent) => void) => Promise<ImportOutcome>;

/** The production server's runner (lib/server/import-runner.ts provides it at start-up). */
export const importRunner = processSlot<ImportRunner>("import runner");
