import type { z } from "zod";

/** The first problem zod found in an input, as every refusal here names it (one sentence, one field). */
export interface FirstIssue {
  /** zod's message ("must not be empty"). */
  message: string;
  /** Where it is: the path joined with dots ("custom_inputs.0.label"); undefined for the input as a whole. */
  where?: string;
  /** The top-level field it concerns (the path's first key); undefined for the input as a whole. */
  key?: string;
  /** The key's own name when the problem is a key the schema does not know. */
  unknownKey?: string;
  /** The path's length: 1 for a top-level field. */
  depth: number;
}

export function firstIssueOf(error: z.ZodError): FirstIssue {
  const issue = error.issues[0]!;
  const { path } = issue;
  return {
    message: issue.message,
    where: path.length > 0 ? path.join(".") : undefined,
    key: path.length > 0 ? String(path[0]) : undefined,
    unknownKey: issue.code === "unrecognized_keys" ? issue.keys[0] : undefined,
    depth: path.length,
  };
}
