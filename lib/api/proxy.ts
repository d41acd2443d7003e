import { NextResponse, type NextRequest } from "next/server";

/**
 * Next.js cannot decode a path with a malformed percent-encoding (`/v1/waitlist/%ZZ`) and answers
 * with a plain-text 500 before any route runs. Escaping every "%" makes the path literal text, so
 * the request reaches the /v1 routes and gets the usual checks and problem+json answers.
 */
export function v1Proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  try {
    decodeURIComponent(pathname);
    return NextResponse.next();
  } catch {
    return NextResponse.rewrite(new URL(pathname.replaceAll("%", "%25") + search, request.url));
  }
}
