// The benchmark's baseline: a bare node:http server over the app's own query layer.
//   DATABASE_PATH=/tmp/bench.db PORT=3520 node --import tsx tests/bench/baseline-server.ts
//   DATABASE_URL=postgres://… PORT=3520 node --import tsx tests/bench/baseline-server.ts
//
// Identical SQL: every query is the query layer's own function (verifyApiKey, getWaitlist, the
// signup pages, streams and exports with SQLite-built JSON, the dashboard page's rows and counts,
// the session check), each running a statement prepared once per connection. What it leaves out
// is everything between the socket and the SQL: Next.js routing, Web Request/Response/
// ReadableStream, zod parameter parsing and React. It answers only the benchmark's requests,
// without the API's full error handling. Its joins go where the server's go (lib/server/writers.ts): to
// a join writer thread of its own running the domain's group commit, or on PostgreSQL to the same
// batches in this process.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { openDatabase, type AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { signupsScope } from "@/lib/api/scopes";
import { JOIN_ROLE, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { joinAnswer } from "@/lib/api/write-answers";
import { submitJoin } from "@/lib/domain/joining/join";
import { provideBatchedJoins, provideWriters, startWriterThreads } from "@/lib/server/writers";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { env } from "@/lib/core/env";
import { DAY_MS } from "@/lib/core/time";
import { parseSignupTableParams } from "@/lib/dashboard/signup-table";
import { getSessionFromToken } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { neutralizeFormula, SIGNUP_CSV_COLUMNS } from "@/lib/domain/signups/csv";
import { cachedCountSignups, cachedSignupsPerDay } from "@/lib/domain/signups/cached-stats";
import { countSignupsSince, cutAt } from "@/lib/domain/signups/counts";
import { listSignupRows, signupJsonBatches, signupJsonPage, signupRowBatches } from "@/lib/domain/signups/queries";
import type { SignupRow } from "@/lib/domain/signups/row";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { getWaitlist } from "@/lib/domain/waitlists/queries";

// The SQLite file at DATABASE_PATH, or the PostgreSQL database at DATABASE_URL (the bench's --engine
// postgres: the same query layer over postgres.js). Opened before the server listens.
let db: AppDatabase;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class Refusal extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

function apiHeaders(extra: Record<string, string> = {}) {
  return { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "Request-Id": randomUUID(), ...extra };
}

async function authenticate(request: IncomingMessage, role = VIEW_ROLE) {
  const authorization = request.headers.authorization;
  const presented = authorization ? /^Bearer +(\S+) *$/i.exec(authorization)?.[1] : (request.headers["x-api-key"] as string | undefined);
  const check = await verifyApiKey(presented, role, db);
  if (!check.ok) throw new Refusal(check.reason === "forbidden" ? 403 : 401);
}

async function requireSession(request: IncomingMessage) {
  const cookie = request.headers.cookie ?? "";
  const token = cookie.split(/; */).find((pair) => pair.startsWith(`${SESSION_COOKIE}=`))?.slice(SESSION_COOKIE.length + 1);
  if (!await getSessionFromToken(token, db)) throw new Refusal(401);
}

async function findWaitlist(id: string) {
  const waitlist = UUID.test(id) ? await getWaitlist(id, db) : undefined;
  if (!waitlist) throw new Refusal(404);
  return waitlist;
}

/** Resolves when the socket can take more, or when the client has gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.on("drain", done);
    response.on("close", done);
  });
}

/** Writes chunks with back-pressure: the next chunk is made only when the socket took the last. */
async function writeChunks(response: ServerResponse, chunks: AsyncIterable<string>) {
  for await (const chunk of chunks) {
    if (response.destroyed) return;
    if (!response.write(chunk)) await drained(response);
  }
  response.end();
}

async function* jsonArrayChunks(batches: AsyncIterable<string[]>) {
  let opened = false;
  for await (const batch of batches) {
    yield (opened ? "," : "[") + batch.join(",");
    opened = true;
  }
  yield opened ? "]" : "[]";
}

// GET /v1/waitlist/{id}
async function waitlistRoute(request: IncomingMessage, response: ServerResponse, id: string, url: URL) {
  await authenticate(request);
  if (url.search) throw new Refusal(400);
  const waitlist = await findWaitlist(id);
  response.writeHead(200, apiHeaders()).end(JSON.stringify({ id: waitlist.id, name: waitlist.name, website: waitlist.website }));
}

function booleanParam(url: URL, name: string): boolean | undefined {
  const value = url.searchParams.get(name);
  if (value === null) return undefined;
  if (value !== "true" && value !== "false") throw new Refusal(400);
  return value === "true";
}

// GET /v1/waitlist/{id}/signup[?verified&referral&limit&cursor]
async function signupsRoute(request: IncomingMessage, response: ServerResponse, id: string, url: URL) {
  await authenticate(request);
  for (const name of url.searchParams.keys()) if (!["verified", "referral", "limit", "cursor"].includes(name)) throw new Refusal(400);
  const filters = { verified: booleanParam(url, "verified"), referral: booleanParam(url, "referral") };
  const limitText = url.searchParams.get("limit");
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new Refusal(400);
  const cursorText = url.searchParams.get("cursor");
  const waitlistId = (await findWaitlist(id)).id;
  const cursorScope = signupsScope({ waitlistId, ...filters });
  const scope = { waitlistId, ...filters };
  if (limit === undefined) {
    response.writeHead(200, apiHeaders());
    await writeChunks(response, jsonArrayChunks(signupJsonBatches(scope, 1000, db)));
    return;
  }
  const after = cursorText === null ? undefined : decodeCursor(cursorScope, cursorText);
  const { items, next } = await signupJsonPage({ scope, limit, after }, db);
  const headers: Record<string, string> = {};
  if (next) {
    const nextUrl = new URL(url);
    nextUrl.searchParams.set("cursor", encodeCursor(cursorScope, next));
    headers.Link = `<${nextUrl.href}>; rel="next"`;
  }
  response.writeHead(200, apiHeaders(headers)).end(`[${items.join(",")}]`);
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

// POST /v1/waitlist/{id}/signup {"email": "…"}
async function joinRoute(request: IncomingMessage, response: ServerResponse, id: string) {
  await authenticate(request, JOIN_ROLE);
  const { email } = JSON.parse(await bodyOf(request)) as { email: string };
  const waitlistId = (await findWaitlist(id)).id;
  const { answer } = await submitJoin({ input: { waitlistId, email, customInputs: [], source: {}, clientAddress: request.socket.remoteAddress }, recorded: {} }, joinAnswer);
  response.writeHead(answer.code, apiHeaders()).end(answer.body);
}

function tableScope(waitlistId: string, url: URL) {
  const state = parseSignupTableParams(Object.fromEntries(url.searchParams));
  const scope: SignupScope = { waitlistId, verified: state.verified, referral: state.referral, emailContains: state.emailContains };
  return { state, scope };
}

// The same quoting as csv-stringify's defaults: a cell is quoted when it holds the delimiter, a quote or the record delimiter.
function csvCell(value: string): string {
  const cell = neutralizeFormula(value);
  return /[",]|\r\n/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

function csvLine(row: SignupRow): string {
  return [row.email, String(row.verified), String(row.referral), JSON.stringify(row.customInputs), row.createdAt.toISOString(), row.status, row.statusChangedAt?.toISOString() ?? ""].map(csvCell).join(",");
}

async function* csvChunks(scope: SignupScope) {
  yield `${SIGNUP_CSV_COLUMNS.join(",")}\r\n`;
  for await (const rows of signupRowBatches(scope, 1000, db)) yield `${rows.map(csvLine).join("\r\n")}\r\n`;
}

// GET /waitlists/{id}/export – the dashboard's CSV export
async function exportRoute(request: IncomingMessage, response: ServerResponse, id: string, url: URL) {
  await requireSession(request);
  const { scope } = tableScope((await findWaitlist(id)).id, url);
  response.writeHead(200, { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="signups.csv"', "cache-control": "no-store" });
  await writeChunks(response, csvChunks(scope));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

// GET /waitlists/{id} – the queries of the dashboard page, written as bare HTML (no React)
async function pageRoute(request: IncomingMessage, response: ServerResponse, id: string, url: URL) {
  await requireSession(request);
  const waitlist = await findWaitlist(id);
  const { state, scope } = tableScope(waitlist.id, url);
  const rows = await listSignupRows({ scope, sort: state.sort, direction: state.dir, offset: (state.page - 1) * state.size, limit: state.size }, db);
  const counts = await cachedCountSignups(scope, db);
  const now = Date.now();
  const today = now - (now % DAY_MS);
  const charted = cutAt(scope, new Date(today + DAY_MS));
  const lastWeek = await countSignupsSince(charted, new Date(now - 7 * DAY_MS), db);
  const perDay = await cachedSignupsPerDay(charted, new Date(today - 89 * DAY_MS), db);
  const body = [
    `<!DOCTYPE html><html><head><title>${escapeHtml(waitlist.name)}</title></head><body><h1>${escapeHtml(waitlist.name)}</h1>`,
    `<dl><dt>Signups</dt><dd>${counts.total}</dd><dt>Verified</dt><dd>${counts.verified}</dd><dt>Referral</dt><dd>${counts.referral}</dd><dt>Last 7 days</dt><dd>${lastWeek}</dd></dl>`,
    `<ol>${(perDay ?? []).map((day) => `<li>${day.day}: ${day.count}</li>`).join("")}</ol>`,
    `<table><tbody>${rows.map((row) => `<tr><td>${escapeHtml(row.email)}</td><td>${row.verified}</td><td>${row.referral}</td><td>${row.createdAt.toISOString()}</td></tr>`).join("")}</tbody></table>`,
    "</body></html>",
  ];
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body.join(""));
}

const POST_ROUTES: typeof ROUTES = [[/^\/v1\/waitlist\/([^/]+)\/signup$/, joinRoute]];

const ROUTES: [RegExp, (request: IncomingMessage, response: ServerResponse, id: string, url: URL) => Promise<void>][] = [
  [/^\/v1\/waitlist\/([^/]+)$/, waitlistRoute],
  [/^\/v1\/waitlist\/([^/]+)\/signup$/, signupsRoute],
  [/^\/waitlists\/([^/]+)\/export$/, exportRoute],
  [/^\/waitlists\/([^/]+)$/, pageRoute],
];

async function answer(request: IncomingMessage, response: ServerResponse) {
  try {
    const url = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`);
    for (const [pattern, route] of request.method === "POST" ? POST_ROUTES : request.method === "GET" ? ROUTES : []) {
      const match = pattern.exec(url.pathname);
      if (match) return await route(request, response, decodeURIComponent(match[1]!), url);
    }
    throw new Refusal(404);
  } catch (error) {
    const status = error instanceof Refusal ? error.status : error instanceof Error && "code" in error && error.code === "invalid_parameter" ? 400 : 500;
    if (status === 500) console.error(error);
    if (response.headersSent) response.destroy();
    else response.writeHead(status, { "Content-Type": "application/problem+json" }).end(JSON.stringify({ status }));
  }
}

const server = createServer((request, response) => void answer(request, response));

async function main() {
  const url = process.env.DATABASE_URL;
  db = url ? await openPostgres(url) : openDatabase(env().DATABASE_PATH);
  // Joins as the app's server hands them on: to SQLite's join writer thread, or on PostgreSQL batched in
  // this process (runJoinJobs, a transaction per batch), lib/server/server.ts's choice.
  if (db.$engine.kind === "sqlite") provideWriters(startWriterThreads());
  else provideBatchedJoins();
  server.listen(env().PORT, "127.0.0.1", () => console.log(`baseline listening on ${env().PORT}`));
}

process.on("SIGTERM", () => server.close(() => process.exit(0)));
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
