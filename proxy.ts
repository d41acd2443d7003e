import type { NextRequest } from "next/server";
import { dashboardProxy } from "@/lib/dashboard/proxy";
import { joinPageCspOptions } from "@/lib/join/framing";
import { withPageCsp } from "@/lib/dashboard/page-security";

// Everything but /v1 (lib/api/dispatch.ts answers it) and Next's static files: a CSP with
// a fresh nonce (lib/dashboard/page-security.ts), and dashboard pages and the CSV export need a session
// (lib/dashboard/proxy.ts); /docs, /signin and the public join pages (/join/…, framed by their waitlist's
// embed origins: lib/join/framing.ts) pass through. Static security headers: next.config.ts.
export async function proxy(request: NextRequest) {
  return withPageCsp(request, (requestHeaders) => dashboardProxy(request, requestHeaders), await joinPageCspOptions(request.nextUrl.pathname));
}

// /v1 never reaches the proxy: running it costs an API request about as much CPU as the route
// itself (tests/bench/README.md). Next.js needs the matcher as a literal: "v1/" here is the prefix
// of isApiPath (lib/http/api-path.ts). An import upload (/waitlists/{id}/import/upload) never reaches the
// proxy either: Next.js buffers the body of every request the proxy sees (in memory, cut at 10 MB), and
// the upload's route does its own checks (lib/dashboard/import-upload.ts).
export const config = { matcher: ["/((?!_next/static/|v1/|waitlists/[^/]+/import/upload$).*)"] };
