import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { SERVER_STOPPED_MESSAGE } from "@/lib/import/events";
import { startTestServer, type TestServer } from "../support/test-server";
import { databaseState, filesHolding, readEvents, signupCsv, uploadFixture } from "../support/upload-client";

// Issue 19, item 2: an uploaded file (every address in it) never outlives the server. The server's
// TMPDIR is a folder of this test's own, so that what is left there can be checked exactly. The
// server is stopped in the middle of an import of 60,000 rows, with SIGTERM and with SIGKILL; the
// import leaves nothing in the database, and nothing of the file is left, before or after a restart.

test.describe.configure({ timeout: 180_000 });

const ROWS = 60_000;

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  test(`${signal} in the middle of an upload's import: no file left in TMPDIR, nothing imported, and the same file imports after a restart`, async () => {
    const temporaryFolder = mkdtempSync(join(tmpdir(), "waitlist-shutdown-tmp-"));
    const env = { TMPDIR: temporaryFolder, REQUEST_LOG: "off", WEB_CONCURRENCY: "1" };
    let server: TestServer = await startTestServer({ portOffset: 40, name: `import-${signal}`, env });
    try {
      const domain = `${signal.toLowerCase()}.example`;
      const { waitlistId, headers, uploadUrl } = await uploadFixture(server, `Stopped by ${signal}`);
      const csv = signupCsv(ROWS, domain);
      const response = await fetch(uploadUrl("people.csv"), { method: "POST", headers, body: csv });
      expect(response.status).toBe(200);
      const { events, finished } = readEvents(response);
      // Inside the import's transaction: rows have been read and inserted, and more remain.
      await expect.poll(() => events.some((event) => event.type === "progress" && event.phase === "importing" && event.bytesRead < event.totalBytes), { timeout: 60_000 }).toBe(true);
      expect(events.some((event) => event.type === "done")).toBe(false);
      // Even while it runs, the file has no name under TMPDIR.
      expect(filesHolding(temporaryFolder, `@${domain}`)).toEqual([]);

      await server.stop(signal);
      if (signal === "SIGTERM") {
        // The import was rolled back and the response ended with its outcome.
        await finished;
        expect(events.at(-1)).toEqual({ type: "failed", message: SERVER_STOPPED_MESSAGE });
        expect(server.process.exitCode).toBe(0);
        expect(server.stderr.filter((line) => line.includes("failed"))).toEqual([`import into waitlist ${waitlistId} failed: the server is stopping; rolled back`]);
      } else {
        await expect(finished).rejects.toThrow();
      }
      expect(filesHolding(temporaryFolder, `@${domain}`)).toEqual([]);
      expect(databaseState(server.databasePath, waitlistId)).toEqual({ signups: 0, imports: 0, integrity: "ok" });

      // What an earlier version left behind (it kept the file by its name) goes at start-up.
      const legacy = join(temporaryFolder, "waitlist-import-AbC123");
      mkdirSync(legacy);
      writeFileSync(join(legacy, "upload.csv"), csv);
      server = await startTestServer({ portOffset: 40, name: `import-${signal}`, databasePath: server.databasePath, env });
      expect(existsSync(legacy)).toBe(false);
      expect(filesHolding(temporaryFolder, `@${domain}`)).toEqual([]);
      expect(databaseState(server.databasePath, waitlistId)).toEqual({ signups: 0, imports: 0, integrity: "ok" });

      const again = await fetch(uploadUrl("people.csv"), { method: "POST", headers, body: csv });
      const rerun = readEvents(again);
      await rerun.finished;
      expect(rerun.events.at(-1)).toEqual({ type: "done", imported: ROWS, skipped_duplicates: 0 });
      expect(databaseState(server.databasePath, waitlistId)).toEqual({ signups: ROWS, imports: 1, integrity: "ok" });
      expect(filesHolding(temporaryFolder, `@${domain}`)).toEqual([]);
    } finally {
      await server.stop();
      rmSync(temporaryFolder, { recursive: true, force: true });
    }
  });
}
