import { v1Proxy } from "@/lib/api/proxy";

// Only /v1: the dashboard's pages and /docs are not affected.
export const proxy = v1Proxy;

export const config = { matcher: "/v1/:path*" };
