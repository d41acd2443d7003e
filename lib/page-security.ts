import { NextResponse, type NextRequest } from "next/server";
import { newNonce, pageCsp } from "./security-headers";

/**
 * Gives a page request its CSP with a fresh nonce. Next.js reads the nonce from the request's
 * Content-Security-Policy header and puts it on the scripts it renders; the response carries the
 * same policy. Pages must render per request for this (the root layout awaits `connection()`).
 */
export function pageSecurityProxy(request: NextRequest, requestHeaders = new Headers(request.headers)): NextResponse {
  const policy = pageCsp(newNonce(), process.env.NODE_ENV === "development");
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}
