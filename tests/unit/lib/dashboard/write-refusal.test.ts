import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { invalidInputMessage, sentence, writeRefusalOf } from "@/lib/dashboard/write-refusal";

const zodError = (input: unknown) => z.strictObject({ name: z.string().min(1, "must not be empty") }).safeParse(input).error!;

describe("the dashboard's refused-write answer", () => {
  it("ends a message with one full stop", () => {
    expect(sentence("Saved")).toBe("Saved.");
    expect(sentence("Saved.")).toBe("Saved.");
    expect(sentence("Really?")).toBe("Really?");
  });

  it("words refused input as one sentence naming the field, then what was not done", () => {
    expect(invalidInputMessage(zodError({ name: "" }), "form")).toBe("Invalid name: must not be empty. Nothing was changed.");
    expect(invalidInputMessage(zodError({ name: "" }), "form", "Nothing was imported.")).toBe("Invalid name: must not be empty. Nothing was imported.");
    expect(invalidInputMessage(zodError({ name: "" }), "form", "")).toBe("Invalid name: must not be empty.");
    expect(invalidInputMessage(z.string().safeParse(1).error!, "request", "")).toMatch(/^Invalid request: /);
  });

  it("maps refused input to 400, an AppError to its status, a storage failure to 503; anything else is not a refusal", () => {
    expect(writeRefusalOf(zodError({ name: "" }))).toEqual({ status: 400, message: "Invalid name: must not be empty. Nothing was changed." });
    expect(writeRefusalOf(new AppError("not_found", "No such thing"))).toEqual({ status: 404, message: "No such thing. Nothing was changed." });
    expect(writeRefusalOf(new AppError("conflict", "Taken."), "")).toEqual({ status: 409, message: "Taken." });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    expect(writeRefusalOf(full)).toEqual({ status: 503, message: "The database's disk is full: nothing was changed; free some space on it." });
    logged.mockRestore();
    expect(writeRefusalOf(new AppError("internal", "boom"))).toBeUndefined();
    expect(writeRefusalOf(new Error("a bug"))).toBeUndefined();
  });
});
