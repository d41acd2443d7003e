import { NextResponse, type NextRequest } from "next/server";
import { signInHref } from "@/lib/return-path";
import { isPublicPath, REQUEST_PATH_HEADER, SESSION_COOKIE } from "@/lib/session-cookie";

// Dashboard requests without a session cookie go straight to sign-in (a real 307 before any
// rendering). Whether the cookie's session is still valid is checked by requireSession() in each
// page and route, which gets the requested path and query from REQUEST_PATH_HEADER.
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (isPublicPath(pathname)) return NextResponse.next();
  const search = new URLSearchParams(request.nextUrl.search);
  search.delete("_rsc");
  const query = search.toString();
  const requested = pathname + (query ? `?${query}` : "");
  if (!request.cookies.get(SESSION_COOKIE)?.value) {
    return NextResponse.redirect(new URL(signInHref(requested), request.url));
  }
  const forwarded = new Headers(request.headers);
  forwarded.set(REQUEST_PATH_HEADER, requested);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico).*)"],
};
