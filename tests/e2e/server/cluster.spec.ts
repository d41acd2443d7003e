import { spawn } from "node:child_process";
import { once } from "node:events";
import { get, type IncomingMessage } from "node:http";
import { expect, test } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import type { RequestLogLine } from "@/lib/server/request-log";
import { startTestServer, type TestServer } from "../support/test-server";

// `npm start` with WEB_CONCURRENCY=2: a primary and two workers on one port. Every request below
// opens a connection of its own, and node:cluster hands each new connection to the next worker, so
// consecutive requests alternate between the workers (the log line's pid shows which one served).
// Each worker allows its share of every limit (the limit ÷ 2): with connections alternating, a
// limit trips at its documented count, and each answer's RateLimit header is its worker's count.

const LIMITS = { RATE_LIMIT_PER_MINUTE: 6, AUTH_FAILURES_PER_MINUTE: 4, DASHBOARD_REQUESTS_PER_MINUTE: 6 };
// Large enough (about 20 MB of CSV) that an export nobody reads stays running (see dashboard/cost-bounds.spec.ts).
const SIGNUPS = 150_000;

let server: TestServer;
let workers: number[];
let waitlistId: string;

interface Answer {
  status: number;
  requestId: string;
  headers: IncomingMessage["headers"];
}

/** A GET on a connection of its own; the body is read to the end, or left unread (`hold`) until `close()`. */
function request(path: string, headers: Record<string, string> = {}, hold = false): Promise<Answer & { close: () => void }> {
  return new Promise((resolve, reject) => {
    const outgoing = get(`${server.url}${path}`, { headers, agent: false }, (response) => {
      const answer = { status: response.statusCode!, requestId: String(response.headers["request-id"]), headers: response.headers, close: () => outgoing.destroy() };
      if (hold) return resolve(answer);
      response.resume();
      response.on("end", () => resolve(answer));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
  });
}

const logLines = () => server.stdout.filter((text) => text.startsWith("{")).map((text) => JSON.parse(text) as Record<string, unknown>);

/** The pid of the process that served each request (from its log line). */
async function servedBy(answers: { requestId: string }[]): Promise<number[]> {
  let pids: (number | undefined)[] = [];
  await expect
    .poll(() => {
      const lines = logLines() as unknown as RequestLogLine[];
      pids = answers.map(({ requestId }) => lines.find((line) => line.request_id === requestId)?.pid);
      return pids.every((pid) => pid !== undefined);
    })
    .toBe(true);
  return pids as number[];
}

const remaining = (answer: Answer) => Number(/;r=(\d+);/.exec(String(answer.headers["ratelimit"]))?.[1]);
const from = (address: string, headers: Record<string, string> = {}) => ({ ...headers, "x-forwarded-for": address });

test.beforeAll(async () => {
  server = await startTestServer({
    portOffset: 11,
    name: "cluster",
    env: { WEB_CONCURRENCY: "2", TRUSTED_PROXY_HOPS: "1", ...Object.fromEntries(Object.entries(LIMITS).map(([name, value]) => [name, String(value)])) },
  });
  await expect.poll(() => logLines().find((line) => line.msg === "listening")).toBeTruthy();
  workers = logLines().find((line) => line.msg === "listening")!.workers as number[];
  const db = server.db();
  waitlistId = (await createWaitlist({ name: "Cluster", website: "https://example.com" }, db)).id;
  const insert = db.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  db.$client.transaction(() => {
    for (let i = 0; i < SIGNUPS; i++) insert.run(waitlistId, `user${i}@example.com`, i % 2, 0, `[{"label":"company","value":"Company ${i} Incorporated"}]`, Date.UTC(2026, 0, 1) + i * 1000);
  })();
});

test.afterAll(async () => {
  await server?.stop();
});

test("one primary and two workers share the port; connections go to both; one listening line", async () => {
  expect(workers).toHaveLength(2);
  expect(workers).not.toContain(server.process.pid);
  expect(logLines().filter((line) => line.msg === "listening")).toHaveLength(1);
  const answers = [];
  for (let index = 0; index < 4; index++) answers.push(await request("/v1/openapi.json"));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  expect(new Set(await servedBy(answers))).toEqual(new Set(workers));
});

test("each worker allows half the per-key limit: alternating, the 429 comes at request RATE_LIMIT_PER_MINUTE + 1", async () => {
  const key = (await createApiKey({ name: "cluster per key", roles: ["waitlist:view"] }, server.db())).key;
  const answers = [];
  for (let index = 0; index < LIMITS.RATE_LIMIT_PER_MINUTE + 2; index++) answers.push(await request("/v1/waitlist", from("198.51.100.1", { authorization: `Bearer ${key}` })));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  expect(answers.map(remaining)).toEqual([2, 2, 1, 1, 0, 0, 0, 0]);
  expect(answers[0]!.headers["ratelimit-policy"]).toBe('"per-key";q=3;w=60');
  expect(answers[6]!.headers["retry-after"]).toBeDefined();
  expect(new Set(await servedBy(answers))).toEqual(new Set(workers));
});

test("each worker allows half the failed authentications per address, and then refuses a valid key too", async () => {
  const key = (await createApiKey({ name: "cluster failures", roles: ["waitlist:view"] }, server.db())).key;
  const wrong = { authorization: `Bearer wl_${"x".repeat(43)}` };
  const answers = [];
  for (let index = 0; index < LIMITS.AUTH_FAILURES_PER_MINUTE + 1; index++) answers.push(await request("/v1/waitlist", from("203.0.113.9", wrong)));
  for (let index = 0; index < 2; index++) answers.push(await request("/v1/waitlist", from("203.0.113.9", { authorization: `Bearer ${key}` })));
  expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 429, 429, 429]);
  expect(answers.map(remaining)).toEqual([1, 1, 0, 0, 0, 0, 0]);
  expect(answers.every((answer) => String(answer.headers["ratelimit-policy"]).startsWith('"auth-failures"'))).toBe(true);
  expect(new Set(await servedBy(answers))).toEqual(new Set(workers));
  // The key itself was charged nothing.
  expect(remaining(await request("/v1/waitlist", from("203.0.113.10", { authorization: `Bearer ${key}` })))).toBe(2);
});

test("each worker allows half the dashboard budget of a session", async () => {
  const key = await createApiKey({ name: "cluster dashboard", roles: ["waitlist:view"] }, server.db());
  const cookie = { cookie: `${SESSION_COOKIE}=${(await createSession(key.id, server.db())).token}` };
  const answers = [];
  for (let index = 0; index < LIMITS.DASHBOARD_REQUESTS_PER_MINUTE + 2; index++) answers.push(await request("/", cookie));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  expect(new Set(await servedBy(answers))).toEqual(new Set(workers));
});

test("a session runs at most two CSV exports at once, one per worker", async () => {
  const key = await createApiKey({ name: "cluster exports", roles: ["waitlist:view"] }, server.db());
  const cookie = { cookie: `${SESSION_COOKIE}=${(await createSession(key.id, server.db())).token}` };
  const path = `/waitlists/${waitlistId}/export`;
  const running = [await request(path, cookie, true), await request(path, cookie, true)];
  expect(running.map((answer) => answer.status)).toEqual([200, 200]);
  const third = await request(path, cookie);
  expect(third.status).toBe(429);
  for (const answer of running) answer.close();
  // The two running exports were on different workers (each logged once its client went away) ...
  expect(new Set(await servedBy(running))).toEqual(new Set(workers));
  // ... and hanging up freed their slots.
  await expect
    .poll(async () => {
      const attempt = await request(path, cookie, true);
      attempt.close();
      return attempt.status;
    })
    .toBe(200);
});

test("workers that cannot listen (the port is taken) stop the server: exit code 1 and one line", async () => {
  test.slow(); // two more servers boot before they find the port taken
  const second = spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts"], {
    env: { ...process.env, DATABASE_PATH: server.databasePath, PORT: String(server.port), HOST: "127.0.0.1", WEB_CONCURRENCY: "2", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  second.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(second, "exit")) as [number | null];
  expect(stderr.trim().split("\n")).toEqual([`error: port ${server.port} is in use: stop the other server or set PORT`]);
  expect(code).toBe(1);
});

test("a killed worker is replaced while the other keeps serving", async () => {
  const [victim, survivor] = workers as [number, number];
  process.kill(victim, "SIGKILL");
  await expect.poll(() => logLines().find((line) => line.msg === "worker exited" && line.pid === victim)).toMatchObject({ level: "error", signal: "SIGKILL" });
  const meanwhile = [];
  for (let index = 0; index < 4; index++) meanwhile.push(await request("/v1/openapi.json"));
  expect(meanwhile.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  await expect.poll(() => logLines().find((line) => line.msg === "worker started"), { timeout: 60_000 }).toBeTruthy();
  const replacement = logLines().find((line) => line.msg === "worker started")!.pid as number;
  expect(replacement).not.toBe(victim);
  workers = [survivor, replacement];
  const after = [];
  for (let index = 0; index < 4; index++) after.push(await request("/v1/openapi.json"));
  expect(new Set(await servedBy(after))).toEqual(new Set(workers));
});

test("SIGTERM stops the primary and every worker, with exit code 0", async () => {
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
  await server.stop("SIGTERM");
  expect(await exited).toBe(0);
  for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid}`).toThrow();
});
