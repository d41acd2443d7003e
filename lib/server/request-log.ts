import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestContext } from "@/lib/http/request-context";

// One JSON line per request. Only what cannot hold a secret is written: the path (with anything
// that looks like an API key masked) and the NAMES of the query parameters, never their values,
// headers or cookies; the API key's id, never the key.

export interface RequestLogLine {
  time: string;
  level: "info";
  msg: "request";
  request_id: string;
  method: string;
  path: string;
  query_params?: string[];
  status: number;
  duration_ms: number;
  key_id: string | null;
  client: string;
  /** The process that served it: with several workers, which one. */
  pid: number;
  /** Present when the client went away before the response was complete. */
  aborted?: true;
}

const MAX_PATH = 512;
const KEY_LIKE = /wl_[A-Za-z0-9_-]{8,}/g;

/** The path of a raw request target, and the names of its query parameters. */
export function loggablePath(target: string): { path: string; queryParams?: string[] } {
  const question = target.indexOf("?");
  const rawPath = question === -1 ? target : target.slice(0, question);
  const path = rawPath.replace(KEY_LIKE, "wl_[redacted]").slice(0, MAX_PATH);
  if (question === -1) return { path };
  const names = new Set<string>();
  for (const pair of target.slice(question + 1).split("&")) {
    const name = pair.split("=", 1)[0]!;
    if (name) names.add(safeDecode(name).replace(KEY_LIKE, "wl_[redacted]").slice(0, 64));
    if (names.size >= 20) break;
  }
  return { path, queryParams: [...names] };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

export function formatRequestLog(line: RequestLogLine): string {
  return JSON.stringify(line);
}

/**
 * Writes log lines to stdout in batches: the lines of one event-loop turn go out in one write
 * (stdout to a file or pipe is synchronous, so a write per request is a syscall per request).
 */
export function batchedLineWriter(write: (text: string) => void = (text) => process.stdout.write(text)) {
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join("");
    pending = [];
    write(text);
  };
  return (line: string) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(`${line}\n`);
  };
}

/**
 * Writes the request's line once the response is done: its duration ends when the last byte was
 * handed to the OS ("finish"); the line is written on "close", which also comes when the client
 * went away before that (then marked aborted).
 */
export function logWhenDone(request: IncomingMessage, response: ServerResponse, context: RequestContext, writeLine: (line: string) => void) {
  const started = process.hrtime.bigint();
  let finished: bigint | undefined;
  // Next.js itself adds up to ten listeners to a rewritten request's response.
  response.setMaxListeners(20);
  response.once("finish", () => (finished = process.hrtime.bigint()));
  response.once("close", () => {
    const { path, queryParams } = loggablePath(request.url ?? "/");
    const aborted = !response.writableFinished;
    writeLine(
      formatRequestLog({
        time: new Date().toISOString(),
        level: "info",
        msg: "request",
        request_id: context.requestId,
        method: request.method ?? "",
        path,
        ...(queryParams && { query_params: queryParams }),
        status: response.statusCode,
        duration_ms: Math.round(Number((finished ?? process.hrtime.bigint()) - started) / 1e4) / 100,
        key_id: context.keyId ?? null,
        client: context.clientAddress,
        pid: process.pid,
        ...(aborted && { aborted: true as const }),
      }),
    );
  });
}
