import type { NextRequest, NextResponse } from "next/server";
import { newNonce, pageCsp, type PageCspOptions } from "@/lib/http/security-headers";

/**
 * Gives a page request its CSP with a fresh nonce. Next.js reads the nonce from the request's
 * Content-Security-Policy header and puts it on the scripts it renders; the response carries the
 * same policy. `next` builds the response from the request headers to forward (which already hold
 * the policy). Pages must render per request for this (the root layout awaits `connection()`).
 * `options` widen it for the join page (lib/join/framing.ts).
 */
export async function withPageCsp(request: NextRequest, next: (requestHeaders: Headers) => Promise<NextResponse>, options?: PageCspOptions): Promise<NextResponse> {
  const policy = pageCsp(newNonce(), process.env.NODE_ENV === "development", options);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = await next(requestHeaders);
  response.headers.set("Content-Security-Policy", policy);
  return response;
}
