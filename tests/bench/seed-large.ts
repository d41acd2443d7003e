// Fills a SQLite file with one large waitlist for performance measurements:
//   DATABASE_PATH=/tmp/big.db npx tsx tests/bench/seed-large.ts 1000000
// Prints the waitlist id. Signups spread over the last 365 days; ~60% verified, ~25% referral.
import { randomUUID } from "node:crypto";
import { openDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { insertSignups } from "@/tests/support/insert-signups";

const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count < 1) throw new Error("usage: seed-large.ts <signup count>");

const db = openDatabase(env().DATABASE_PATH);
const sqlite = db.$client;
const waitlistId = randomUUID();
const now = Date.now();
sqlite.prepare("INSERT INTO waitlists (id, name, website, created_at) VALUES (?, ?, ?, ?)").run(waitlistId, `Large list (${count.toLocaleString("en")} signups)`, "https://large.example.com", now - 366 * 86_400_000);

const span = 365 * 86_400_000;
for (let from = 0; from < count; from += 50_000) {
  const to = Math.min(count, from + 50_000);
  // As an import writes them: the bulk writer derives counts, input pairs and search entries.
  insertSignups(
    waitlistId,
    Array.from({ length: to - from }, (_, offset) => {
      const i = from + offset;
      const inputs = i % 3 === 0 ? [] : [{ label: "Company", value: `Company ${i % 997}` }, { label: "Role", value: i % 2 ? "Engineer" : "Founder" }];
      return { email: `person${i}@example${i % 50}.com`, verified: i % 5 < 3, referral: i % 4 === 0, customInputs: JSON.stringify(inputs), createdAt: now - span + Math.floor((i / count) * span) };
    }),
    db,
  );
}
sqlite.pragma("optimize");
console.log(waitlistId);
