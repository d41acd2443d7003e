import { openDatabase } from "@/db/client";
import { signupPosition } from "@/lib/domain/joining/position";
const db = openDatabase("/tmp/rank1m.db");
const w = "b58f93c5-e752-4a3d-b848-9e5dc516822b";
db.$client.exec(`UPDATE signups SET line_at = created_at - 86400000*30, line_pos = id WHERE id IN (SELECT id FROM signups WHERE waitlist_id='${w}' AND status='waiting' ORDER BY random() LIMIT 20000)`);
const ids = (db.$client.prepare("SELECT id FROM signups WHERE waitlist_id = ? AND status='waiting' ORDER BY random() LIMIT 2000").all(w) as { id: number }[]).map((r) => r.id);
for (const id of ids.slice(0, 200)) signupPosition(w, id, db);
const times: number[] = [];
for (const id of ids) { const t = process.hrtime.bigint(); signupPosition(w, id, db); times.push(Number(process.hrtime.bigint() - t) / 1e6); }
times.sort((a, b) => a - b);
console.log("p50", times[1000]!.toFixed(3), "p99", times[1980]!.toFixed(3), "max", times.at(-1)!.toFixed(3));
const again: number[] = [];
for (const id of ids) { const t = process.hrtime.bigint(); signupPosition(w, id, db); again.push(Number(process.hrtime.bigint() - t) / 1e6); }
again.sort((a, b) => a - b);
console.log("warm p50", again[1000]!.toFixed(3), "p99", again[1980]!.toFixed(3), "max", again.at(-1)!.toFixed(3));
