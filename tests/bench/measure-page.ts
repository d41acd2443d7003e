// Times the waitlist page against a running server on the same SQLite file:
//   DATABASE_PATH=/tmp/big.db npx tsx tests/bench/measure-page.ts http://127.0.0.1:3400 <waitlist-id> [query]
// Prints time to first byte, to the first table row in the HTML, and to the last byte (median of 5
// runs), "cold" (a write from this process before each run, so the server's cached counts are stale)
// and "warm" (counts cached, as when paging through the same view).
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";

const [base, waitlistId, query = "verified=true"] = process.argv.slice(2);
if (!base || !waitlistId) throw new Error("usage: measure-page.ts <base-url> <waitlist-id> [query]");

const key = await createApiKey({ name: "perf", roles: ["waitlist:view"] });
const { token } = await createSession(key.id);
// Any commit from another connection moves SQLite's data_version, which invalidates cached counts.
const touchDatabase = async () => await createSession(key.id);

async function once() {
  const started = performance.now();
  const response = await fetch(`${base}/waitlists/${waitlistId}?${query}`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstByte = 0;
  let firstRow = 0;
  let html = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByte) firstByte = performance.now() - started;
    html += decoder.decode(value, { stream: true });
    if (!firstRow && html.includes("<tbody><tr")) firstRow = performance.now() - started;
  }
  return { firstByte, firstRow, lastByte: performance.now() - started, bytes: html.length };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
type Run = Awaited<ReturnType<typeof once>>;
const summary = (runs: Run[]) => ({
  firstByteMs: Math.round(median(runs.map((r) => r.firstByte))),
  firstRowMs: Math.round(median(runs.map((r) => r.firstRow))),
  lastByteMs: Math.round(median(runs.map((r) => r.lastByte))),
});

async function main() {
  await once(); // warm-up: fills the server's statement cache and the OS page cache
  const cold: Run[] = [];
  const warm: Run[] = [];
  for (let run = 0; run < 5; run++) {
    await touchDatabase();
    cold.push(await once());
    warm.push(await once());
  }
  console.log(JSON.stringify({ url: `/waitlists/${waitlistId}?${query}`, bytes: cold[0]!.bytes, cold: summary(cold), warm: summary(warm) }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
