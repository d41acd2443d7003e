import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/sqlite/statements";

// A new key is shown once, on the page the create form redirects to, and any worker of the server
// may serve that page: so the key waits in the database, sealed (AES-256-GCM) under a key derived
// from a random ticket that only the redirect's URL carries, in a row found by the ticket's hash.
// The database alone cannot open it; the URL is dead once the page has taken it (or after five
// minutes); and only the session that created it can take it.

const TTL_MS = 5 * 60_000;
const TICKET_BYTES = 32;

export interface RevealedKey {
  id: string;
  name: string;
  key: string;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "newKeyReveal.statements", () => {
    const sqlite = db.$client;
    return {
      expire: sqlite.prepare<[number]>("DELETE FROM new_key_reveals WHERE expires_at <= ?"),
      hold: sqlite.prepare<[Buffer, string, Buffer, number]>("INSERT INTO new_key_reveals (ticket_hash, session_key_id, sealed, expires_at) VALUES (?, ?, ?, ?)"),
      take: sqlite.prepare<[Buffer, string], { sealed: Buffer; expires_at: number }>(
        "DELETE FROM new_key_reveals WHERE ticket_hash = ? AND session_key_id = ? RETURNING sealed, expires_at",
      ),
    };
  });
}

const ticketHash = (ticket: Buffer) => createHash("sha256").update(ticket).digest();
const sealingKey = (ticket: Buffer) => Buffer.from(hkdfSync("sha256", ticket, Buffer.alloc(0), "waitlist-admin new key reveal", 32));

/** Keeps `key` for the session of `sessionKeyId`; returns the ticket for the redirect's URL. */
export function holdNewKey(key: RevealedKey, sessionKeyId: string, db: AppDatabase = getDb(), now = Date.now()): string {
  const ticket = randomBytes(TICKET_BYTES);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(ticket), iv);
  const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(key), "utf8"), cipher.final(), cipher.getAuthTag()]);
  const prepared = statements(db);
  prepared.expire.run(now);
  prepared.hold.run(ticketHash(ticket), sessionKeyId, sealed, now + TTL_MS);
  return ticket.toString("base64url");
}

/** The key held under `ticket` for this session, at most once; undefined when gone, expired or another session's. */
export function takeNewKey(ticket: string | undefined, sessionKeyId: string, db: AppDatabase = getDb(), now = Date.now()): RevealedKey | undefined {
  if (ticket === undefined || !/^[A-Za-z0-9_-]{43}$/.test(ticket)) return undefined;
  const raw = Buffer.from(ticket, "base64url");
  const row = statements(db).take.get(ticketHash(raw), sessionKeyId);
  if (!row || row.expires_at <= now) return undefined;
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(raw), row.sealed.subarray(0, 12));
  decipher.setAuthTag(row.sealed.subarray(row.sealed.length - 16));
  const text = Buffer.concat([decipher.update(row.sealed.subarray(12, row.sealed.length - 16)), decipher.final()]).toString("utf8");
  return JSON.parse(text) as RevealedKey;
}
