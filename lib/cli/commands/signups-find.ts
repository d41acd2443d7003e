import type { Command } from "commander";
import { z } from "zod";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";
import { findSignupsByEmail, type FoundSignup } from "@/lib/domain/signups/find";
import { signupPublicId } from "@/lib/domain/signups/id";
import { MIN_INDEXED_SEARCH } from "@/lib/domain/signups/scope-sql";
import { emit, parseOptions, table, type JsonOption } from "../output";

const MAX_FOUND = 1000;

const findSchema = z.object({
  email: z
    .string()
    .trim()
    .min(MIN_INDEXED_SEARCH)
    .max(MAX_EMAIL_LENGTH)
    .describe(`a whole address or a part of one, ${MIN_INDEXED_SEARCH} to ${MAX_EMAIL_LENGTH} characters`),
  limit: z.coerce.number().int().min(1).max(MAX_FOUND).describe(`a whole number from 1 to ${MAX_FOUND}`),
});

/**
 * The signups whose address is `text` (case-insensitive) first, then those containing it, at most
 * `limit`: a lookup of the whole address comes first so that many partial matches cannot hide it.
 */
async function findSignups(text: string, limit: number): Promise<{ found: (FoundSignup & { exact: boolean })[]; truncated: boolean }> {
  const exact = await findSignupsByEmail({ email: text, limit: limit + 1 });
  const exactIds = new Set(exact.map((signup) => signup.signupId));
  const containing = (await findSignupsByEmail({ contains: text, limit: limit + 1 + exact.length })).filter((signup) => !exactIds.has(signup.signupId));
  const found = [...exact.map((signup) => ({ ...signup, exact: true })), ...containing.map((signup) => ({ ...signup, exact: false }))];
  return { found: found.slice(0, limit), truncated: found.length > limit };
}

export function registerSignupFind(signups: Command): void {
  signups
    .command("find")
    .description("Find which waitlists hold an address (in any case), or addresses containing a text: exact matches first, then the others by address.")
    .requiredOption("--email <text>", `a whole address or a part of one (at least ${MIN_INDEXED_SEARCH} characters)`)
    .option("--limit <n>", `the most signups to show (at most ${MAX_FOUND})`, "100")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { email: string; limit: string } & JsonOption) => {
      const { email, limit } = parseOptions(findSchema, { email: options.email, limit: options.limit });
      const { found, truncated } = await findSignups(email, limit);
      const signups = found.map((signup) => ({
        email: signup.email,
        exact: signup.exact,
        waitlist_id: signup.waitlistId,
        waitlist_name: signup.waitlistName,
        signup_id: signupPublicId(signup.signupId),
        created_at: signup.createdAt.toISOString(),
      }));
      emit(options, { signups, truncated }, () => {
        if (signups.length === 0) return `No signup has an address containing "${email}".`;
        const rows = table(
          ["EMAIL", "WAITLIST", "WAITLIST ID", "SIGNUP ID", "CREATED"],
          signups.map((signup) => [signup.email, signup.waitlist_name, signup.waitlist_id, signup.signup_id, signup.created_at]),
        );
        return truncated ? `${rows}\nOnly the first ${limit} are shown: give more of the address, or a higher --limit.` : rows;
      });
    });
}
