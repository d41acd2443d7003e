import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { z } from "zod";
import { formatBytes } from "@/lib/core/bytes";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import type { DashboardSession } from "@/lib/domain/sessions";
import { IMPORT_RUNNER_KEY, type ImportEvent, type ImportJob, type ImportOutcome, type ImportRunner } from "@/lib/domain/imports/import-events";
import { importDelimiterSchema, importFileNameSchema } from "@/lib/domain/imports/import-options";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { auditActorOf, plainTextResponse, sentence } from "./admin-post";

// POST /waitlists/{id}/import/upload: the request body is the file itself, streamed to a temporary
// file (IMPORT_MAX_BYTES at most, counted while it arrives), then imported by importSignups (the
// CLI's import) on a thread of its own. The response streams ImportEvents, one JSON object per line,
// until the outcome. The temporary file is deleted whatever happens.

/** The upload's query string: the file's name (for its format) and, for CSV, the delimiter. */
export const importUploadParamsSchema = z.object({ name: importFileNameSchema, delimiter: importDelimiterSchema });

class UploadTooLargeError extends Error {}

function tooLargeMessage(limit: number): string {
  return `The file is larger than the ${formatBytes(limit)} an import may have (IMPORT_MAX_BYTES). Nothing was imported.`;
}

/** Streams `body` to `path`, failing with UploadTooLargeError as soon as more than `limit` bytes came. */
async function receive(body: ReadableStream<Uint8Array>, path: string, limit: number): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > limit ? new UploadTooLargeError() : null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), counter, createWriteStream(path, { flags: "wx", mode: 0o600 }));
  return bytes;
}

/** The response to an upload by an admin session (adminWriteCheck passed): refusals first, then the import's event stream. */
export async function importUpload(request: Request, session: DashboardSession, waitlistId: string): Promise<Response> {
  const url = new URL(request.url);
  const parsed = importUploadParamsSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return plainTextResponse(400, `${sentence(`Invalid ${issue.path.join(".") || "request"}: ${issue.message}`)} Nothing was imported.`);
  }
  try {
    getWaitlistOrThrow(waitlistId);
  } catch (error) {
    if (error instanceof AppError) return plainTextResponse(error.status, sentence(error.message));
    throw error;
  }
  const limit = env().IMPORT_MAX_BYTES;
  if (Number(request.headers.get("content-length") ?? 0) > limit) return plainTextResponse(413, tooLargeMessage(limit));
  if (!request.body) return plainTextResponse(400, "Invalid request: the body must be the file to import. Nothing was imported.");
  const runner = (globalThis as Record<string, unknown>)[IMPORT_RUNNER_KEY] as ImportRunner | undefined;
  if (!runner) return plainTextResponse(503, "Imports from the dashboard need the production server (npm start). Nothing was imported.");

  const folder = await mkdtemp(join(tmpdir(), "waitlist-import-"));
  const path = join(folder, `upload${extname(parsed.data.name).toLowerCase()}`);
  let bytes: number;
  try {
    bytes = await receive(request.body, path, limit);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    if (error instanceof UploadTooLargeError) return plainTextResponse(413, tooLargeMessage(limit));
    return plainTextResponse(400, "The upload was interrupted. Nothing was imported.");
  }
  const job: ImportJob = { waitlistId, path, delimiter: parsed.data.delimiter, actor: auditActorOf(session) };
  return new Response(eventStream(bytes, (onEvent) => runner(job, onEvent).finally(() => rm(folder, { recursive: true, force: true }))), {
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
        console.error("import failed", error);
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
