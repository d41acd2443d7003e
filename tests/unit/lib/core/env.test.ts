import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";

/** env() as the server would see it with `values` in its environment (a fresh module: env() parses once). */
async function envWith(values: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  const { env } = await import("@/lib/core/env");
  return env;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("WEB_CONCURRENCY and READ_THREADS", () => {
  it("run one worker per available core by default, each with 2 reader threads alone or 1 among several", async () => {
    const env = (await envWith({ WEB_CONCURRENCY: undefined, READ_THREADS: undefined }))();
    expect(env.WEB_CONCURRENCY).toBe(availableParallelism());
    expect(env.READ_THREADS).toBe(availableParallelism() > 1 ? 1 : 2);
    expect((await envWith({ WEB_CONCURRENCY: "1", READ_THREADS: undefined }))()).toMatchObject({ WEB_CONCURRENCY: 1, READ_THREADS: 2 });
    expect((await envWith({ WEB_CONCURRENCY: "4", READ_THREADS: undefined }))()).toMatchObject({ WEB_CONCURRENCY: 4, READ_THREADS: 1 });
    expect((await envWith({ WEB_CONCURRENCY: "4", READ_THREADS: "0" }))()).toMatchObject({ WEB_CONCURRENCY: 4, READ_THREADS: 0 });
  });

  it("refuse a worker count that is not a whole number from 1 to 64, naming the variable", async () => {
    for (const value of ["0", "-1", "two", "1.5", "65"]) {
      const env = await envWith({ WEB_CONCURRENCY: value });
      expect(() => env(), value).toThrow(/^Invalid environment: WEB_CONCURRENCY: /);
    }
  });
});
