import { NextResponse, type NextRequest } from "next/server";
import { budgetExceededResponse, dashboardBudget, SESSION_ID_HEADER, sessionIdOf } from "./budget";
import { serverLimits } from "@/lib/http/limits";
import { sharedLimitStore } from "@/lib/domain/limits/shared";
import { renamedFilterQuery } from "./legacy-filter-names";
import { signInHref } from "./return-path";
import { isHttpsRequest } from "@/lib/http/origin";
import { isPublicPath, REQUEST_PATH_HEADER, sessionCookieName } from "./session-cookie";

/**
 * Dashboard requests without a session cookie (of the name that applies: `__Host-` over HTTPS) go
 * straight to sign-in (a real 307 before anything renders). Whether the cookie's session is still valid is checked by requireSession() in each page,
 * layout and route, which gets the requested path and query from REQUEST_PATH_HEADER.
 *
 * The per-session request budget is counted here too: this runs before anything renders, for every
 * dashboard path alike, and can still answer 429 (a page cannot set its status once it streams).
 * It sees only the cookie, not whether its session is valid, which is enough to count by: a cookie
 * without a valid session gets nothing but requireSession()'s redirect to sign-in.
 */
export async function dashboardProxy(request: NextRequest, forwarded = new Headers(request.headers)): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  if (isPublicPath(pathname)) return NextResponse.next({ request: { headers: forwarded } });
  const search = new URLSearchParams(request.nextUrl.search);
  const renamed = renamedFilterQuery(pathname, search);
  if (renamed) {
    const target = new URL(request.url);
    target.search = renamed.toString();
    return NextResponse.redirect(target, 308);
  }
  search.delete("_rsc");
  const query = search.toString();
  const requested = pathname + (query ? `?${query}` : "");
  const token = request.cookies.get(sessionCookieName(isHttpsRequest(request.headers)))?.value;
  if (!token) return NextResponse.redirect(new URL(signInHref(requested), request.url));
  const sessionId = sessionIdOf(token);
  const budget = await serverLimits(sharedLimitStore()).hit(dashboardBudget(), sessionId);
  if (!budget.allowed) return budgetExceededResponse(budget);
  forwarded.set(REQUEST_PATH_HEADER, requested);
  forwarded.set(SESSION_ID_HEADER, sessionId);
  return NextResponse.next({ request: { headers: forwarded } });
}
