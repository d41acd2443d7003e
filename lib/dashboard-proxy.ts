import { NextResponse, type NextRequest } from "next/server";
import { signInHref } from "./return-path";
import { isHttpsRequest, isPublicPath, REQUEST_PATH_HEADER, sessionCookieName } from "./session-cookie";

/**
 * Dashboard requests without a session cookie (of the name that applies: `__Host-` over HTTPS) go
 * straight to sign-in (a real 307 before anything renders). Whether the cookie's session is still valid is checked by requireSession() in each page,
 * layout and route, which gets the requested path and query from REQUEST_PATH_HEADER.
 */
export function dashboardProxy(request: NextRequest, forwarded = new Headers(request.headers)): NextResponse {
  const { pathname } = request.nextUrl;
  if (isPublicPath(pathname)) return NextResponse.next({ request: { headers: forwarded } });
  const search = new URLSearchParams(request.nextUrl.search);
  search.delete("_rsc");
  const query = search.toString();
  const requested = pathname + (query ? `?${query}` : "");
  if (!request.cookies.get(sessionCookieName(isHttpsRequest(request.headers)))?.value) {
    return NextResponse.redirect(new URL(signInHref(requested), request.url));
  }
  forwarded.set(REQUEST_PATH_HEADER, requested);
  return NextResponse.next({ request: { headers: forwarded } });
}
