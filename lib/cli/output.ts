import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { firstIssueOf } from "@/lib/core/zod-issue";

export interface JsonOption {
  json?: boolean;
}

/** Prints a command's result: one JSON object with --json, else the human text. */
export function emit(options: JsonOption, result: object, human: () => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${human()}\n`);
}

/**
 * Parses CLI input with a zod schema; a failure is one readable AppError naming the option
 * (`optionOf` gives it for a key of the input, by default `--<key>`).
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, optionOf = (key: string) => `--${key}`): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = firstIssueOf(parsed.error);
  const name = issue.key !== undefined ? optionOf(issue.key) : "input";
  const value = issue.key !== undefined ? (input as Record<string, unknown>)[issue.key] : undefined;
  const got = typeof value === "string" ? ` (got ${JSON.stringify(value)})` : "";
  // A field's description ("an absolute http or https URL") says more than zod's generic message.
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  const description = issue.depth === 1 ? shape?.[issue.key!]?.description : undefined;
  throw new AppError("invalid_parameter", `invalid ${name}: ${description ? `must be ${description}` : issue.message}${got}`, name);
}

/** A fixed-width text table for human output. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return [format(headers), ...rows.map(format)].join("\n");
}
