#!/usr/bin/env bash
# Streams a 1,000,000-signup waitlist from the production server and reports the server's peak
# memory and the duration; also checks that writes go through while a slow client holds a stream.
# Usage (after `npx next build`): tests/bench/api-stream-memory.sh [port] [signups]
set -euo pipefail
port=${1:-3310}
count=${2:-1000000}
db=$(mktemp -u /tmp/waitlist-stream-XXXX.db)
export DATABASE_PATH=$db NEXT_TELEMETRY_DISABLED=1
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; rm -f "$db" "$db-wal" "$db-shm" /tmp/stream-$$.json; }
trap cleanup EXIT

read -r waitlist key < <(npx tsx tests/bench/seed-big-waitlist.ts "$count" 2>/dev/null)
node node_modules/next/dist/bin/next start -H 127.0.0.1 -p "$port" >/dev/null 2>&1 &
server=$!
until curl -fsS -o /dev/null "http://127.0.0.1:$port/v1/openapi.json" 2>/dev/null; do sleep 0.3; done
# Warm up the route, then measure from the warmed-up resident size.
curl -fsS -o /dev/null -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/waitlist/$waitlist/signup?limit=10"
rss() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }
before=$(rss)
peak=$before
url="http://127.0.0.1:$port/v1/waitlist/$waitlist/signup"
curl -fsS -o /tmp/stream-$$.json -w '%{time_total} %{size_download}\n' -H "Authorization: Bearer $key" "$url" >/tmp/stream-$$.time &
client=$!
while kill -0 "$client" 2>/dev/null; do now=$(rss); [ "$now" -gt "$peak" ] && peak=$now; sleep 0.1; done
wait "$client"
read -r seconds bytes </tmp/stream-$$.time
items=$(node -e 'const a=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(a.length)' /tmp/stream-$$.json)
echo "signups=$items bytes=$bytes seconds=$seconds server_rss_before_kb=$before server_rss_peak_kb=$peak server_vmhwm_kb=$(awk '/^VmHWM/ {print $2}' /proc/$server/status)"

# A slow client (50 KB/s) holds a stream open; meanwhile a first-time key (a write on the server's
# own connection: last_used_at) and a signup insert from another process must both go through.
curl -sS -o /dev/null --limit-rate 50K -H "Authorization: Bearer $key" "$url" &
slow=$!
sleep 2
ticks() { awk '{print $14+$15}' "/proc/$server/stat"; }
t0=$(ticks); sleep 2; echo "during a 50 KB/s stream: server rss_kb=$(rss), cpu ticks in 2 s=$(( $(ticks) - t0 )) (no read-ahead: back-pressure)"
fresh=$(npx tsx -e 'import { createApiKey } from "@/lib/api-keys"; console.log(createApiKey({ name: "fresh", roles: ["waitlist:view"] }).key)' 2>/dev/null)
curl -fsS -o /dev/null -w 'request with a first-time key during the slow stream: %{http_code} in %{time_total}s\n' -H "Authorization: Bearer $fresh" "http://127.0.0.1:$port/v1/waitlist"
start=$(date +%s%N)
npx tsx -e 'import { getDb } from "@/db/client"; getDb().$client.prepare("INSERT INTO signups (waitlist_id, email, created_at) VALUES (?, ?, ?)").run(process.argv[1], "late@example.com", Date.now());' "$waitlist" 2>/dev/null
echo "insert from another process during the slow stream: ok in $(( ($(date +%s%N) - start) / 1000000 )) ms (including tsx start-up)"
kill "$slow" 2>/dev/null || true
sleep 0.5; t0=$(ticks); sleep 2; echo "after the slow client hung up: cpu ticks in 2 s=$(( $(ticks) - t0 )) (reading stopped)"
