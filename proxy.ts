import { dashboardProxy } from "@/lib/dashboard-proxy";

// Dashboard pages and the CSV export need a session (see lib/dashboard-proxy.ts); /v1, /docs and
// /signin pass through untouched.
export const proxy = dashboardProxy;

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico).*)"],
};
