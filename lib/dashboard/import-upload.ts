import "server-only";
import type { FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { z } from "zod";
import { formatBytes } from "@/lib/core/bytes";
import { env } from "@/lib/core/env";
import type { DashboardSession } from "@/lib/domain/sessions";
import { importRunner, type ImportEvent, type ImportJob, type ImportOutcome } from "@/lib/import/events";
import { importDelimiterSchema, importFileNameSchema, importFormatOf } from "@/lib/import/options";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { serverLimits } from "@/lib/http/limits";
import { sharedLimitStore } from "@/lib/domain/limits/shared";
import { takeDatabaseImportLock } from "./import-lock";
import { plainTextResponse } from "@/lib/http/form-answers";
import { auditActorOf } from "./admin-post";
import { budgetExceededText, dashboardBudget, sessionIdOf } from "./budget";
import { sessionTokenOf } from "./session-cookie";
import { createUploadFile, uploadFileFailure } from "./upload-file";
import { invalidInputMessage } from "./write-refusal";

// POST /waitlists/{id}/import/upload: the request body is the file itself, streamed to a nameless
// temporary file (./upload-file.ts; IMPORT_MAX_BYTES at most, counted while it arrives), then
// imported by importSignups (the CLI's import) on a thread of its own. The response streams
// ImportEvents, one JSON object per line, until the outcome. Every refusal comes before the body is read.

const NOTHING_IMPORTED = "Nothing was imported.";

/** The upload's query string: the file's name (for its format) and, for CSV only, the delimiter. */
export const importUploadParamsSchema = z
  .object({ name: importFileNameSchema, delimiter: importDelimiterSchema })
  .refine(({ name, delimiter }) => delimiter === undefined || importFormatOf(name) === "csv", {
    path: ["delimiter"],
    message: "a delimiter applies to CSV files only: leave it out for a JSON or NDJSON file",
  });

class UploadTooLargeError extends Error {}

function tooLargeMessage(limit: number): string {
  return `The file is larger than the ${formatBytes(limit)} an import may have (IMPORT_MAX_BYTES). ${NOTHING_IMPORTED}`;
}

/** Writes `body` to `file`, failing with UploadTooLargeError as soon as more than `limit` bytes came. */
async function receive(body: ReadableStream<Uint8Array>, file: FileHandle, limit: number): Promise<number> {
  let bytes = 0;
  for await (const chunk of Readable.fromWeb(body as WebReadableStream<Uint8Array>) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw new UploadTooLargeError();
    await file.write(chunk);
  }
  return bytes;
}

type UploadParams = z.output<typeof importUploadParamsSchema>;

/** The refusals that need neither the body nor a thread, in order; or the upload's parameters when it may proceed. */
async function checkUpload(request: Request, waitlistId: string): Promise<Response | UploadParams> {
  // Not behind proxy.ts (see its matcher), so the upload counts against the session's budget here.
  const budget = await serverLimits(sharedLimitStore()).hit(dashboardBudget(), sessionIdOf(sessionTokenOf(request.headers) ?? ""));
  if (!budget.allowed) return budgetExceededText(budget, NOTHING_IMPORTED);
  const parsed = importUploadParamsSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return plainTextResponse(400, invalidInputMessage(parsed.error, "request", NOTHING_IMPORTED));
  // An unknown waitlist: a 404, answered by adminRoute (app/(dashboard)/waitlists/[id]/import/upload/route.ts).
  await getWaitlistOrThrow(waitlistId);
  const limit = env().IMPORT_MAX_BYTES;
  if (Number(request.headers.get("content-length") ?? 0) > limit) return plainTextResponse(413, tooLargeMessage(limit));
  if (!request.body) return plainTextResponse(400, `Invalid request: the body must be the file to import. ${NOTHING_IMPORTED}`);
  if (!importRunner.get()) return plainTextResponse(503, `Imports from the dashboard need the production server (npm start). ${NOTHING_IMPORTED}`);
  return parsed.data;
}

/** The response to an upload by an admin session (adminRoute's checks passed): refusals first, then the import's event stream. */
export async function importUpload(request: Request, session: DashboardSession, waitlistId: string): Promise<Response> {
  const params = await checkUpload(request, waitlistId);
  if (params instanceof Response) return params;
  const release = await takeDatabaseImportLock();
  if (!release) {
    return plainTextResponse(409, `Another import is running on this server: upload this file again once it has finished. ${NOTHING_IMPORTED}`);
  }
  const limit = env().IMPORT_MAX_BYTES;
  let file: FileHandle | undefined;
  let bytes: number;
  try {
    file = await createUploadFile();
    bytes = await receive(request.body!, file, limit);
  } catch (error) {
    await file?.close();
    release();
    if (error instanceof UploadTooLargeError) return plainTextResponse(413, tooLargeMessage(limit));
    const failure = uploadFileFailure(error);
    if (!failure) return plainTextResponse(400, `The upload was interrupted. ${NOTHING_IMPORTED}`);
    console.error(failure.logged);
    return plainTextResponse(503, failure.message);
  }
  const opened = file;
  const job: ImportJob = { waitlistId, fd: opened.fd, format: importFormatOf(params.name)!, delimiter: params.delimiter, actor: auditActorOf(session) };
  // The file closes (and so disappears) once the import's threads are done with it.
  const run = (onEvent: (event: ImportEvent) => void) => importRunner.get()!(job, onEvent).finally(() => opened.close().finally(release));
  return new Response(eventStream(bytes, run), {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}

/** The import's events as NDJSON: "received", progress while it runs, then its outcome. */
function eventStream(bytes: number, run: (onEvent: (event: ImportEvent) => void) => Promise<ImportOutcome>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: ImportEvent) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          // The browser went away: the import still runs to its end (it cannot be half done).
        }
      };
      send({ type: "received", bytes });
      try {
        send(await run(send));
      } catch (error) {
        console.error(`import failed: ${error instanceof Error ? error.message : String(error)}`);
        send({ type: "failed", message: "the import failed on the server: nothing was imported" });
      }
      try {
        controller.close();
      } catch {
        // already cancelled
      }
    },
  });
}
