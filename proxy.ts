import type { NextRequest } from "next/server";
import { pageSecurityProxy } from "@/lib/page-security";
import { v1Proxy } from "@/lib/api/proxy";

// /v1: keep malformed paths inside the API contract. Everything else but Next's static files:
// a per-request CSP nonce. (Static security headers for all paths are in next.config.ts.)
export function proxy(request: NextRequest) {
  return request.nextUrl.pathname.startsWith("/v1/") || request.nextUrl.pathname === "/v1" ? v1Proxy(request) : pageSecurityProxy(request);
}

export const config = { matcher: ["/((?!_next/static/).*)"] };
