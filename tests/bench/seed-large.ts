// Fills a SQLite file with one large waitlist for performance measurements:
//   DATABASE_PATH=/tmp/big.db npx tsx tests/bench/seed-large.ts 1000000
// Prints the waitlist id. Signups spread over the last 365 days; ~60% verified, ~25% referral.
import { randomUUID } from "node:crypto";
import { openDatabase } from "@/db/client";
import { env } from "@/lib/core/env";

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count < 1) throw new Error("usage: seed-large.ts <signup count>");

const db = openDatabase(env().DATABASE_PATH);
const sqlite = db.$client;
const waitlistId = randomUUID();
const now = Date.now();
sqlite.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, ?)").run(waitlistId, `Large list (${count.toLocaleString("en")} signups)`, "https://large.example.com", now - 366 * 86_400_000);

const insert = sqlite.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
const span = 365 * 86_400_000;
const insertMany = sqlite.transaction((from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const createdAt = now - span + Math.floor((i / count) * span);
    const inputs = i % 3 === 0 ? [] : [{ label: "Company", value: `Company ${i % 997}` }, { label: "Role", value: i % 2 ? "Engineer" : "Founder" }];
    insert.run(waitlistId, `person${i}@example${i % 50}.com`, i % 5 < 3 ? 1 : 0, i % 4 === 0 ? 1 : 0, JSON.stringify(inputs), createdAt);
  }
});
for (let from = 0; from < count; from += 50_000) insertMany(from, Math.min(count, from + 50_000));
sqlite.pragma("optimize");
console.log(waitlistId);
