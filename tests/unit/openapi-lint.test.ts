import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedOpenApiText } from "./openapi-served";

// The served OpenAPI document passes both common linters with their default rule sets, without
// a warning: Redocly CLI's `recommended` and Spectral's `spectral:oas`. Both run offline on a file.

const run = promisify(execFile);
let dir: string;
let documentPath: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "waitlist-openapi-lint-"));
  documentPath = join(dir, "openapi.json");
  writeFileSync(documentPath, await servedOpenApiText());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a linter's CLI; both exit non-zero when they find errors, which the JSON report shows too. */
async function lint(cli: string, args: string[]): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  try {
    return (await run(process.execPath, [cli, ...args], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

describe("the OpenAPI document is lint-clean", () => {
  it("Redocly CLI (recommended rules): no error, no warning", async () => {
    const report = JSON.parse(await lint(join(process.cwd(), "node_modules/@redocly/cli/bin/cli.js"), ["lint", documentPath, "--format=json", "--extends=recommended"])) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("Spectral (spectral:oas): no error, no warning", async () => {
    const ruleset = join(dir, ".spectral.yaml");
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const output = await lint(join(process.cwd(), "node_modules/@stoplight/spectral-cli/dist/index.js"), ["lint", documentPath, "--ruleset", ruleset, "--format", "json", "--quiet"]);
    const results = JSON.parse(output) as { code: string; message: string; path: string[] }[];
    expect(results.map((result) => `${result.code}: ${result.message} at ${result.path.join(".")}`)).toEqual([]);
  });
});
