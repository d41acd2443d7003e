import "server-only";
import { z } from "zod";
import { MAX_WAITLIST_NAME, newWaitlistSchema } from "./queries";

// The input of every waitlist write, shared by the CLI and the dashboard's forms: both hand these
// schemas plain strings (a form's fields, a command's options), so a refusal reads the same.

// A checkbox sends "on" (or its value), the CLI "true" or "false"; absent means no. A boolean is
// accepted too, so that a parsed input parses again to itself (the write functions parse what they get).
const flag = z
  .union([z.boolean(), z.stringbool({ truthy: ["true", "on"], falsy: ["false", "off"] })])
  .default(false)
  .describe("true or false");

export const createWaitlistSchema = newWaitlistSchema.extend({
  allowDuplicateName: flag,
});
export type CreateWaitlistInput = z.input<typeof createWaitlistSchema>;

export const updateWaitlistSchema = z
  .object({
    name: newWaitlistSchema.shape.name.optional(),
    website: newWaitlistSchema.shape.website.optional().describe(newWaitlistSchema.shape.website.description!),
    allowDuplicateName: flag,
  })
  .refine((input) => input.name !== undefined || input.website !== undefined, { message: "give a new name, a new website, or both" });
export type UpdateWaitlistInput = z.input<typeof updateWaitlistSchema>;

export const deleteWaitlistSchema = z.object({
  // Compared with the name exactly (as GitHub does for a repository): a slip of the finger deletes nothing.
  confirm: z.string().max(MAX_WAITLIST_NAME).describe("the waitlist's name, exactly"),
});
export type DeleteWaitlistInput = z.input<typeof deleteWaitlistSchema>;
