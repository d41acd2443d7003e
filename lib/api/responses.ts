import type { Position } from "@/lib/sqlite/keyset";
import { encodeCursor } from "./cursor";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function jsonResponse(body: unknown, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(JSON.stringify(body), headers);
}

/** For bodies that are already JSON text (SQLite builds signup objects itself). */
export function jsonTextResponse(text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status: 200, headers: { "Content-Type": JSON_CONTENT_TYPE, ...headers } });
}

export function jsonStreamResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: { "Content-Type": JSON_CONTENT_TYPE } });
}

/**
 * The `Link` header for the next page: the request's own URL (same origin, path and other
 * parameters) with the cursor replaced. Empty when this is the last page.
 */
export function nextPageHeaders(url: URL, scope: string, next: Position | null): Record<string, string> {
  if (!next) return {};
  const nextUrl = new URL(url);
  nextUrl.searchParams.set("cursor", encodeCursor(scope, next));
  return { Link: `<${nextUrl.href}>; rel="next"` };
}
