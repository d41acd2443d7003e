import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { WAITED_TOO_LONG } from "@/lib/server/call-envelope";
import { RESTART_INTERVAL_MS } from "@/lib/server/thread-policy";

describe("the thread service", () => {
  it("fails the calls of a thread that dies, starts it again no sooner than RESTART_INTERVAL_MS after its start, refuses a call past its deadline unrun, and stops", () => {
    const output = execFileSync(process.execPath, ["--import", "tsx", "tests/unit/fixtures/thread-calls-child.ts"], { encoding: "utf8", timeout: 30_000 });
    const answer = JSON.parse(output) as Record<string, unknown> & { waitedMs: number };
    expect(answer.first).toEqual({ result: "echo hello" });
    expect(answer.crashed).toEqual({ error: "the echo thread exited" });
    expect(answer.aliveAfterCrash).toBe(false);
    // The call made while the thread was down waited for its restart, and was answered.
    expect(answer.afterRestart).toEqual({ result: "echo again" });
    expect(answer.waitedMs).toBeGreaterThan(RESTART_INTERVAL_MS / 2);
    expect(answer.waitedMs).toBeLessThan(RESTART_INTERVAL_MS + 5_000);
    expect(answer.late).toEqual({ error: WAITED_TOO_LONG.message, code: "SQLITE_BUSY" });
    expect(answer.aliveAfterStop).toBe(false);
  }, 40_000);
});
