import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createApiKey } from "@/lib/domain/keys/queries";
import type { ImportEvent } from "@/lib/import/events";
import { createSession } from "@/lib/domain/sessions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import type { TestServer } from "./test-server";

// Uploads to the dashboard's import endpoint of a server of the test's own (startTestServer), as the
// page's script sends them: the file as the body, the NDJSON events read as they arrive.

/** A waitlist on `server` and the headers of an admin session's same-origin upload. */
export async function uploadFixture(server: TestServer, name: string) {
  const db = server.db();
  const waitlist = await createWaitlist({ name, website: "https://upload.example" }, db);
  const { token } = await createSession((await createApiKey({ name: `${name} admin`, roles: ["waitlist:admin"] }, db)).id, db);
  const headers = { cookie: `${SESSION_COOKIE}=${token}`, origin: server.url };
  return { waitlistId: waitlist.id, headers, uploadUrl: (file: string) => `${server.url}/waitlists/${waitlist.id}/import/upload?name=${encodeURIComponent(file)}` };
}

/** A CSV of `rows` signups whose addresses all end in `@<domain>`. */
export function signupCsv(rows: number, domain: string): string {
  const lines = ["email,verified,referral,company"];
  for (let index = 0; index < rows; index++) lines.push(`person.${index}@${domain},${index % 2 === 0},${index % 3 === 0},Company ${index % 97}`);
  return `${lines.join("\n")}\n`;
}

/** The events of an upload's response as they arrive; `finished` settles when the response ends (or breaks). */
export function readEvents(response: Response) {
  const events: ImportEvent[] = [];
  const finished = (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      for (let end = rest.indexOf("\n"); end !== -1; end = rest.indexOf("\n")) {
        events.push(JSON.parse(rest.slice(0, end)) as ImportEvent);
        rest = rest.slice(end + 1);
      }
    }
  })();
  // A broken response (a killed server) rejects `finished` for whoever awaits it, never unhandled.
  finished.catch(() => {});
  return { events, finished };
}

/** Every file under `folder` (recursively) whose bytes contain `text`. */
export function filesHolding(folder: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (readFileSync(path).includes(text)) found.push(path);
  }
  return found;
}

/** The signups of a waitlist, the audit entries of imports into it, and integrity_check, read from the file. */
export function databaseState(path: string, waitlistId: string) {
  // Read-write, though it only reads: a read-only connection cannot open a WAL database whose -shm
  // file another process is re-creating at that moment (SQLITE_CANTOPEN, seen under load).
  const sqlite = new Database(path, { fileMustExist: true });
  try {
    return {
      signups: (sqlite.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?").get(waitlistId) as { n: number }).n,
      imports: (sqlite.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'signups.import' AND target = ?").get(waitlistId) as { n: number }).n,
      integrity: sqlite.pragma("integrity_check", { simple: true }),
    };
  } finally {
    sqlite.close();
  }
}
