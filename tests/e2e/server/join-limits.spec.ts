import { request as httpRequest, type IncomingMessage } from "node:http";
import { expect, test } from "@playwright/test";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { JOIN_ERRORS } from "@/lib/join/form-fields";
import { createApiKey, JOIN_ROLE } from "@/lib/domain/keys/queries";
import type { RequestLogLine } from "@/lib/server/request-log";
import { openWaitlist } from "../support/join-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// The join limits (issue 29, item 5) and the proof of work's used solutions (item 7) are kept in
// SQLite: the join page and POST /v1/waitlist/{id}/signup count together, on both workers of
// WEB_CONCURRENCY=2 (every request below opens a connection of its own, so node:cluster hands them to
// the workers in turn), and a restarted server goes on from the same counts. The test runner acts as
// the one trusted proxy: X-Forwarded-For names the client.

const ENV = { WEB_CONCURRENCY: "2", TRUSTED_PROXY_HOPS: "1", JOINS_PER_ADDRESS_PER_HOUR: "4", JOINS_PER_CLIENT_PER_HOUR: "8" };
let server: TestServer;
let joinKey: string;

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

function post(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}${path}`, { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const throughPage = (waitlistId: string, email: string, client: string, fields: Record<string, string> = {}) =>
  post(`/join/${waitlistId}/submit`, new URLSearchParams({ email, ...fields }).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    "sec-fetch-site": "same-origin",
    "x-forwarded-for": client,
  });
const throughApi = (waitlistId: string, email: string, client: string) =>
  post(`/v1/waitlist/${waitlistId}/signup`, JSON.stringify({ email }), { authorization: `Bearer ${joinKey}`, "content-type": "application/json", "x-forwarded-for": client });

/** What a page answer was: joined (on to /join/{id}/joined, new address or not), or sent back with which error. */
const pageOutcome = (answer: Answer) => {
  expect(answer.status).toBe(303);
  const location = String(answer.headers.location);
  return /^\/join\/[0-9a-f-]{36}\/joined$/.test(location) ? "joined" : (new URL(location, server.url).searchParams.get("error") ?? location);
};

const logLines = () => server.stdout.filter((text) => text.startsWith("{")).map((text) => JSON.parse(text) as Omit<RequestLogLine, "msg"> & { msg: string });

async function start(databasePath?: string) {
  server = await startTestServer({ portOffset: 80, name: "join-limits", env: ENV, databasePath });
  await expect.poll(() => logLines().find((line) => line.msg === "listening")).toBeTruthy();
}

test.beforeAll(async () => {
  await start();
  joinKey = (await createApiKey({ name: "join limits", roles: [JOIN_ROLE] }, server.db())).key;
});

test.afterAll(async () => {
  await server?.stop();
});

test("one address: the page and the API count together on both workers, the 5th join is refused, and a restart keeps the count", async () => {
  const waitlist = await openWaitlist({}, server.db());
  const client = "198.51.100.10";
  const answers = [
    await throughPage(waitlist.id, "eager@example.com", client),
    await throughApi(waitlist.id, "Eager@example.com", client),
    await throughPage(waitlist.id, "EAGER@example.com", client),
    await throughApi(waitlist.id, "eager@example.com", client),
  ];
  expect([pageOutcome(answers[0]!), answers[1]!.status, pageOutcome(answers[2]!), answers[3]!.status]).toEqual(["joined", 200, "joined", 200]);
  // Both workers served them (their log lines' pids).
  const ids = answers.map((answer) => String(answer.headers["request-id"]));
  await expect.poll(() => new Set(logLines().filter((line) => ids.includes(line.request_id)).map((line) => line.pid)).size).toBe(2);

  expect(pageOutcome(await throughPage(waitlist.id, "eager@example.com", client))).toBe("rate_limited");
  const refused = await throughApi(waitlist.id, "eager@example.com", client);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
  expect(JSON.parse(refused.body)).toMatchObject({ code: "rate_limited", detail: "Too many attempts with this address: try again later." });

  // The page says so in a sentence.
  const form = await fetch(`${server.url}/join/${waitlist.id}?error=rate_limited`);
  expect(await form.text()).toContain(JOIN_ERRORS.rate_limited);

  const { databasePath } = server;
  await server.stop();
  await start(databasePath);
  expect((await throughApi(waitlist.id, "eager@example.com", client)).status).toBe(429);
  expect(pageOutcome(await throughPage(waitlist.id, "eager@example.com", client))).toBe("rate_limited");
  // Another address is not held up.
  expect((await throughApi(waitlist.id, "calm@example.com", "198.51.100.11")).status).toBe(201);
});

test("one client address (X-Forwarded-For behind TRUSTED_PROXY_HOPS=1): JOINS_PER_CLIENT_PER_HOUR joins of any addresses, page and API together", async () => {
  const waitlist = await openWaitlist({}, server.db());
  const other = await openWaitlist({}, server.db());
  const client = "203.0.113.7";
  const outcomes = [];
  for (let index = 0; index < 8; index++) {
    const list = index % 3 === 0 ? other.id : waitlist.id;
    outcomes.push(index % 2 ? (await throughApi(list, `script${index}@example.com`, client)).status : pageOutcome(await throughPage(list, `script${index}@example.com`, client)));
  }
  expect(outcomes).toEqual(["joined", 201, "joined", 201, "joined", 201, "joined", 201]);
  const refused = await throughApi(waitlist.id, "script8@example.com", client);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
  expect(JSON.parse(refused.body)).toMatchObject({ code: "rate_limited", detail: "Too many joins from this network: try again later." });
  expect(pageOutcome(await throughPage(waitlist.id, "script9@example.com", client))).toBe("rate_limited");
  // Another client is not; a client cannot pass as another by writing its own entry first (only the proxy's last one counts).
  expect((await throughApi(waitlist.id, "neighbour@example.com", "203.0.113.8")).status).toBe(201);
  expect((await throughApi(waitlist.id, "forger@example.com", `203.0.113.99, ${client}`)).status).toBe(429);
});

test("a solved proof of work is accepted once: refused again by either worker, after a restart, and on another waitlist", async () => {
  const waitlist = await openWaitlist({ challenge: true }, server.db());
  const other = await openWaitlist({ challenge: true }, server.db());
  const challenge = await (await fetch(`${server.url}/join/${waitlist.id}/challenge`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");

  expect(pageOutcome(await throughPage(other.id, "pow-elsewhere@example.com", "192.0.2.1", { altcha }))).toBe("challenge");
  expect(pageOutcome(await throughPage(waitlist.id, "pow@example.com", "192.0.2.1", { altcha }))).toBe("joined");
  // Again, on connections of their own: each worker in turn.
  for (let attempt = 0; attempt < 2; attempt++) expect(pageOutcome(await throughPage(waitlist.id, `pow${attempt}@example.com`, "192.0.2.1", { altcha }))).toBe("challenge");
  const { databasePath } = server;
  await server.stop();
  await start(databasePath);
  expect(pageOutcome(await throughPage(waitlist.id, "pow-restart@example.com", "192.0.2.1", { altcha }))).toBe("challenge");
  // A challenge for an unknown waitlist is not handed out.
  expect((await fetch(`${server.url}/join/00000000-0000-4000-8000-000000000000/challenge`)).status).toBe(404);
});
