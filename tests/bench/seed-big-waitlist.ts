// Creates a waitlist with N signups (default 1,000,000) and a viewer key in DATABASE_PATH, fast,
// for the streaming benchmark. Prints "<waitlist id> <api key>".
// Usage: DATABASE_PATH=/tmp/big.db npx tsx tests/bench/seed-big-waitlist.ts [count]
import { getDb } from "@/db/client";
import { createApiKey } from "@/lib/domain/api-keys";
import { createWaitlist } from "@/lib/domain/waitlists/queries";

const count = Number(process.argv[2] ?? 1_000_000);
const db = getDb();
const waitlist = createWaitlist({ name: `Big ${count}`, website: "https://example.com/big" }, db);
const insert = db.$client.prepare(
  "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)",
);
const start = Date.UTC(2025, 0, 1);
const chunk = 50_000;
for (let from = 0; from < count; from += chunk) {
  db.$client.transaction(() => {
    for (let i = from; i < Math.min(from + chunk, count); i++) {
      const inputs = i % 4 === 0 ? `[{"question":"Company","answer":"Company ${i}"}]` : "[]";
      insert.run(waitlist.id, `user${i}@example.com`, i % 2, i % 3 === 0 ? 1 : 0, inputs, start + i * 10);
    }
  })();
}
const key = createApiKey({ name: "stream benchmark", roles: ["waitlist:view"] }, db);
console.log(waitlist.id, key.key);
