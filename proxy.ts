import type { NextRequest } from "next/server";
import { v1Proxy } from "@/lib/api/proxy";
import { dashboardProxy } from "@/lib/dashboard-proxy";

// /v1 gets its path repair (lib/api/proxy.ts); dashboard pages and the CSV export need a session
// (lib/dashboard-proxy.ts); /docs and /signin pass through untouched.
export function proxy(request: NextRequest) {
  return /^\/v1(\/|$)/.test(request.nextUrl.pathname) ? v1Proxy(request) : dashboardProxy(request);
}

// /v1/... reaches the proxy only when its path holds a "%", the one case the path repair is for:
// running the proxy costs every other API request about as much CPU as the route itself
// (tests/bench/README.md).
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|v1/).*)", "/v1/:rest(.*%.*)"],
};
