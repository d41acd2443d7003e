import { autocannon } from "@/tests/bench/load/autocannon";
async function main() {
  const [origin, w, key, seconds] = process.argv.slice(2);
  let n = 0;
  const r = await autocannon({ url: origin!, connections: 16, duration: Number(seconds), requests: [{ method: "POST", path: `/v1/waitlist/${w}/signup`, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `p${process.pid}.${++n}@example.com` }) }) }] });
  console.log(r["2xx"], r.non2xx, r.requests.average, r.latency.p50, r.latency.p99);
}
void main();
