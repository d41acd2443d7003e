// The "attacker" of tests/bench/load/dashboard-cost.ts, in a process of its own so that its work never
// delays the latency measurement: one signed-in session running `loops` concurrent loops of full CSV
// exports and searches for a random `q` on a random deep page, until SIGTERM. Then prints one JSON
// line: the status counts of the finished requests per kind.
//   npx tsx tests/bench/load/dashboard-attacker.ts <url> <cookie header> <waitlist id> [loops=20]
const [url = "", cookie = "", waitlistId = "", loopsText = "20"] = process.argv.slice(2);
if (!url || !cookie || !waitlistId) throw new Error("usage: dashboard-attacker.ts <url> <cookie> <waitlist id> [loops]");

type Kind = "export" | "search";
const counts: Record<Kind, Record<string, number>> = { export: {}, search: {} };
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

function randomQuery(): string {
  const length = 2 + Math.floor(Math.random() * 4);
  return Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join("");
}

function nextRequest(): { kind: Kind; path: string } {
  if (Math.random() < 0.5) return { kind: "export", path: `/waitlists/${waitlistId}/export` };
  const page = 1 + Math.floor(Math.random() * 999_999);
  return { kind: "search", path: `/waitlists/${waitlistId}?email_contains=${randomQuery()}&sort=email&page=${page}` };
}

async function loop() {
  for (;;) {
    const { kind, path } = nextRequest();
    let outcome: string;
    try {
      const response = await fetch(url + path, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(120_000) });
      // Read every byte, as a browser saving the export or showing the page would.
      await response.arrayBuffer();
      outcome = String(response.status);
    } catch (error) {
      outcome = error instanceof Error && error.name === "TimeoutError" ? "timeout" : "error";
    }
    counts[kind][outcome] = (counts[kind][outcome] ?? 0) + 1;
  }
}

process.once("SIGTERM", () => {
  console.log(JSON.stringify(counts));
  process.exit(0);
});
for (let index = 0; index < Number(loopsText); index++) void loop();
