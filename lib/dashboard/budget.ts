import { createHash } from "node:crypto";
import { NextResponse } from "next/server";
import { env } from "@/lib/core/env";
import type { WindowSpec } from "@/lib/http/limits";
import type { LimitState } from "@/lib/http/rate-limit";

// The dashboard's per-session request budget: DASHBOARD_REQUESTS_PER_MINUTE per session and window
// of 60 seconds, per server on SQLite (each worker allows its share), across all servers on
// PostgreSQL (see lib/http/limits.ts).

/**
 * The id of the session a cookie names, as the sessions table stores it: the SHA-256 of the token
 * (lib/domain/sessions.ts, hashSecret; a unit test ties the two). Budgets are kept under it, never under the token.
 */
export function sessionIdOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Request header in which proxy.ts hands the session id (sessionIdOf) to pages and routes. */
export const SESSION_ID_HEADER = "x-dashboard-session-id";

export function dashboardBudget(): WindowSpec {
  return { name: "dashboard-session", limit: env().DASHBOARD_REQUESTS_PER_MINUTE, windowMs: 60_000, maxKeys: 50_000 };
}

function pauseOf(state: LimitState): string {
  return `${state.resetSeconds} second${state.resetSeconds === 1 ? "" : "s"}`;
}

/**
 * The same refusal as plain text, for a request the page's own script makes (the import upload,
 * which proxy.ts does not see and which counts itself); `nothingDone` ends it ("Nothing was imported.").
 */
export function budgetExceededText(state: LimitState, nothingDone: string): Response {
  const text = `Too many requests: this session made more than ${state.limit} dashboard requests in a minute, and is paused for ${pauseOf(state)}. ${nothingDone}\n`;
  return new Response(text, {
    status: 429,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(state.resetSeconds), "Cache-Control": "no-store" },
  });
}

/** A 429 with a page that says what happened and when to come back (no scripts: it needs no nonce). */
export function budgetExceededResponse(state: LimitState): NextResponse {
  const seconds = pauseOf(state);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Too many requests · Waitlist Admin</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#18181b;background:#fafafa}
main{max-width:36rem;margin:15vh auto;padding:0 1.5rem}
h1{font-size:1.5rem;margin:0 0 1rem}
a{color:#1d4ed8}
@media (prefers-color-scheme:dark){body{color:#f4f4f5;background:#09090b}a{color:#60a5fa}}
</style>
</head>
<body>
<main>
<h1>Too many requests</h1>
<p>This session made more than ${state.limit} dashboard requests in a minute, which is more than a person clicking makes. So that the dashboard and the API stay fast for everyone, it is paused for <strong>${seconds}</strong>.</p>
<p><a href="">Try again</a> after that. For scripts, use the <a href="/docs/api">API</a> with a key of their own.</p>
</main>
</body>
</html>
`;
  return new NextResponse(html, {
    status: 429,
    headers: { "Content-Type": "text/html; charset=utf-8", "Retry-After": String(state.resetSeconds), "Cache-Control": "no-store" },
  });
}
