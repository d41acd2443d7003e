import { randomBytes } from "node:crypto";

// A new key is shown once, on the page the create form redirects to. It cannot travel in that
// URL (history, logs) nor in a cookie a page could not delete, so the server holds it in memory
// under a random ticket, for the session that created it, until that page takes it (once) or a
// few minutes pass.

const TTL_MS = 5 * 60_000;
const MAX_HELD = 100;

interface Held<Key> {
  key: Key;
  sessionKeyId: string;
  until: number;
}

export class NewKeyReveal<Key> {
  private readonly held = new Map<string, Held<Key>>();

  /** Keeps `key` for the session of `sessionKeyId`; returns the ticket for the redirect. */
  hold(key: Key, sessionKeyId: string, now = Date.now()): string {
    for (const [ticket, entry] of this.held) if (entry.until <= now) this.held.delete(ticket);
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    const ticket = randomBytes(16).toString("base64url");
    this.held.set(ticket, { key, sessionKeyId, until: now + TTL_MS });
    return ticket;
  }

  /** The key held under `ticket` for this session, at most once; undefined when gone, expired or another session's. */
  take(ticket: string | undefined, sessionKeyId: string, now = Date.now()): Key | undefined {
    const entry = ticket === undefined ? undefined : this.held.get(ticket);
    if (!entry || entry.sessionKeyId !== sessionKeyId) return undefined;
    this.held.delete(ticket!);
    return entry.until > now ? entry.key : undefined;
  }
}

export interface RevealedKey {
  id: string;
  name: string;
  key: string;
}

// Next.js may evaluate a module once per bundle (the route that holds, the page that takes): one store per process.
const holder = globalThis as typeof globalThis & { __newKeyReveal?: NewKeyReveal<RevealedKey> };

export function newKeyReveal(): NewKeyReveal<RevealedKey> {
  holder.__newKeyReveal ??= new NewKeyReveal();
  return holder.__newKeyReveal;
}
