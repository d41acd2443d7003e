import { v1Proxy } from "@/lib/api/proxy";

// Only /v1 paths with a "%" in them: the proxy is there for malformed percent-encodings, and
// running it costs every other request about as much CPU as the route itself (see tests/bench/README.md).
// The dashboard's pages and /docs are not affected.
export const proxy = v1Proxy;

export const config = { matcher: "/v1/:rest(.*%.*)" };
