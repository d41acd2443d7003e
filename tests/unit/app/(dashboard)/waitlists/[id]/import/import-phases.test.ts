import { describe, expect, it } from "vitest";
import { importPosition, IMPORT_STEPS } from "@/app/(dashboard)/waitlists/[id]/import/import-phases";
import type { UploadState } from "@/app/(dashboard)/waitlists/[id]/import/use-import-upload";

type Running = Extract<UploadState, { stage: "uploading" | "server" }>;

describe("importPosition", () => {
  it("gives the steps consecutive ranges of one bar, from 0 to 100", () => {
    expect(IMPORT_STEPS[0].from).toBe(0);
    expect(IMPORT_STEPS.at(-1)!.to).toBe(100);
    for (let index = 1; index < IMPORT_STEPS.length; index++) expect(IMPORT_STEPS[index]!.from).toBe(IMPORT_STEPS[index - 1]!.to);
  });

  it("never goes back over a whole import: upload, received, importing, validating, deriving", () => {
    const total = 1000;
    const states: Running[] = [
      ...[0, 250, 870, 1000].map((sent): Running => ({ stage: "uploading", sent, total })),
      { stage: "server", phase: "received", done: 0, total, rows: 0 },
      ...[0, 100, 500, 1000].map((done): Running => ({ stage: "server", phase: "importing", done, total, rows: done })),
      { stage: "server", phase: "deriving", done: total, total, rows: 900 },
    ];
    const values = states.map((state) => importPosition(state).value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values[0]).toBe(0);
    expect(values.at(-1)).toBe(90);
    expect(states.map((state) => importPosition(state).step)).toEqual(["uploading", "uploading", "uploading", "uploading", "importing", "importing", "importing", "importing", "importing", "finishing"]);
  });
});
