// A receiver outage with a backlog (a script, not part of npm test):
//   npx tsx tests/bench/load/deliver-outage.ts [port=3695] [events=100000] [outageSeconds=600]
// The production server (lib/server, default delivery settings) with one webhook endpoint whose
// receiver answers 503 for `outageSeconds` while `events` signup.invited events queue up. Then the
// receiver comes back: the backlog must drain completely, every event accepted exactly once (repeats
// only of attempts that were refused), and /v1's p99 (one client in a closed loop, as the bench's
// search-load measures it) stay under 50 ms during the outage and the drain. Prints the figures as JSON.
import { createApiKey } from "@/lib/domain/keys/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { startTestServer } from "@/tests/e2e/support/test-server";
import { startReceiver } from "@/tests/e2e/support/webhook-receiver";
import { insertSignups } from "@/tests/support/insert-signups";
import { download, percentile } from "../measure";

const [portText = "3695", eventsText = "100000", outageText = "600"] = process.argv.slice(2);
const EVENTS = Number(eventsText);

// The receiver listens on http://127.0.0.1 (read when the endpoint is added, here and in the server).
process.env.WEBHOOK_ALLOW_HTTP = "1";

/** One /v1 client in a closed loop until `done()`: the p50, p99 and longest answer. */
async function measureApi(origin: string, paths: string[], headers: Record<string, string>, done: () => boolean) {
  const times: number[] = [];
  while (!done()) {
    const result = await download(origin + paths[times.length % paths.length]!, headers);
    if (result.status !== 200) throw new Error(`/v1: status ${result.status}`);
    times.push(result.lastByteMs);
  }
  return { answered: times.length, p50_ms: percentile(times, 0.5), p99_ms: percentile(times, 0.99), max_ms: times.reduce((longest, time) => Math.max(longest, time), 0) };
}

const forSeconds = (seconds: number) => {
  const deadline = Date.now() + seconds * 1000;
  return () => Date.now() >= deadline;
};

async function main() {
  const server = await startTestServer({
    portOffset: 0,
    port: Number(portText),
    name: "deliver-outage",
    env: { WEBHOOK_ALLOW_HTTP: "1", WEBHOOK_ALLOW_PRIVATE: "1", RATE_LIMIT_PER_MINUTE: "100000000", REQUEST_LOG: "off", WEB_CONCURRENCY: "1" },
  });
  let down = true;
  let secret = "";
  const accepted = new Map<string, number>();
  const receiver = await startReceiver(
    () => secret,
    (request) => {
      if (down) return { status: 503 };
      accepted.set(request.id, (accepted.get(request.id) ?? 0) + 1);
      return { status: 200 };
    },
  );
  const db = server.db();
  secret = (await addEndpoint("cli", { url: receiver.url }, db)).secret;
  const waitlist = await createWaitlist({ name: "Outage", website: "https://outage.example" }, db);
  const emails = Array.from({ length: EVENTS }, (_, index) => `outage${index}@example.com`);
  insertSignups(waitlist.id, emails.map((email) => ({ email, verified: true, referral: false, customInputs: "[]" })), db);
  const api = { Authorization: `Bearer ${(await createApiKey({ name: "outage", roles: ["waitlist:view"] }, db)).key}` };
  const paths = [`/v1/waitlist/${waitlist.id}`, `/v1/waitlist/${waitlist.id}/signup?limit=100`];
  await measureApi(server.url, paths, api, forSeconds(2)); // warm-up
  const quiet = await measureApi(server.url, paths, api, forSeconds(10));

  const invited = Date.now();
  for (let start = 0; start < EVENTS; start += 10_000) await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: emails.slice(start, start + 10_000) } }, db);
  const outage = await measureApi(server.url, paths, api, forSeconds(Number(outageText)));
  const refused = receiver.received.length;
  down = false;
  const recovered = Date.now();
  const succeeded = db.$client.prepare("SELECT count(*) FROM deliveries WHERE state = 'succeeded'").pluck();
  // Counting reads every delivery: at most twice a second, so that this process (the receiver) keeps up.
  let counted = { at: 0, done: false };
  const drained = () => {
    if (Date.now() - recovered > 30 * 60_000) throw new Error(`the backlog did not drain: ${String(succeeded.get())} of ${EVENTS}`);
    if (Date.now() - counted.at >= 500) counted = { at: Date.now(), done: succeeded.get() === EVENTS };
    return counted.done;
  };
  const drain = await measureApi(server.url, paths, api, drained);
  const drainSeconds = (Date.now() - recovered) / 1000;
  const repeats = [...accepted.values()].filter((count) => count > 1).length;
  const figures = {
    events: EVENTS,
    outage_seconds: Number(outageText),
    attempts_refused_during_outage: refused,
    drain_seconds: drainSeconds,
    events_accepted: accepted.size,
    events_accepted_more_than_once: repeats,
    bad_signatures: receiver.received.filter((entry) => !entry.signatureValid).length,
    v1_quiet: quiet,
    v1_during_outage: outage,
    v1_during_drain: drain,
    queued_seconds: (recovered - invited) / 1000,
  };
  await receiver.close();
  await server.stop();
  console.log(JSON.stringify(figures, null, 2));
  const ok = figures.events_accepted === EVENTS && repeats === 0 && figures.bad_signatures === 0 && figures.v1_during_outage.p99_ms < 50 && figures.v1_during_drain.p99_ms < 50;
  console.log(ok ? "passed" : "FAILED");
  process.exitCode = ok ? 0 : 1;
}

void main();
