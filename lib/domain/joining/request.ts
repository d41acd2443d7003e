import { z } from "zod";
import { MAX_EMAIL_LENGTH } from "../signups/email-address";
import { SIGNUP_STATUSES } from "../signups/status";
import { signupResponseSchema } from "../signups/response";
import { MAX_JOIN_INPUT_VALUE } from "./join-input";
import { MAX_JOIN_FIELDS } from "./settings";
import { MAX_SOURCE_TEXT } from "../funnel/source";

// POST /v1/waitlist/{id}/signup: its body and its answer, as zod schemas the handler parses and the
// OpenAPI document shows (the answers are built by toJoinedSignupResponse and toAlreadyOnListResponse, ./join.ts).

function sourceText(description: string) {
  return z
    .string()
    .max(MAX_SOURCE_TEXT)
    .optional()
    .meta({ description: `${description} One line of plain text, at most ${MAX_SOURCE_TEXT} characters; empty is none. Stored on the signup: a filter and a facet (\`fields=\` shows it).` });
}

export const joinBodySchema = z
  .strictObject({
    email: z.string().max(MAX_EMAIL_LENGTH).meta({ description: "The address to put on the list, as typed (stored as typed; matched in any case)." }),
    custom_inputs: z
      .array(
        z.strictObject({
          label: z.string().max(200).meta({ description: "A field of the waitlist's join form (matched in any case)." }),
          value: z.string().max(MAX_JOIN_INPUT_VALUE).meta({ description: "The answer, one line of plain text (no line break, control character or bidirectional control): for a choice field, one of its options." }),
        }),
      )
      .max(MAX_JOIN_FIELDS)
      .default([])
      .meta({ description: "The answers to the waitlist's join form: every required field, no field twice, no other label. Default `[]`." }),
    referral_code: z.string().max(64).optional().meta({ description: "The referral code of the signup that referred this person (from their referral link). An unknown code is ignored." }),
    utm_source: sourceText("The `utm_source` of the link that brought the person (`newsletter`)."),
    utm_medium: sourceText("The `utm_medium` of that link (`email`)."),
    utm_campaign: sourceText("The `utm_campaign` of that link (`launch`)."),
    referrer: z
      .string()
      .max(2048)
      .optional()
      .meta({ description: `The site that referred the person: a host (\`news.ycombinator.com\`), or a URL, of which only the host is stored (at most ${MAX_SOURCE_TEXT} characters). One line of plain text; empty is none.` }),
  })
  .meta({ description: "Who joins, and their answers to the waitlist's form." });

export const joinedSignupResponseSchema = z
  .strictObject({
    ...signupResponseSchema.shape,
    id: z.string().meta({ description: "The signup's id, as `fields=id` gives it." }),
    status: z.enum(SIGNUP_STATUSES).meta({ description: "`waiting` for a new signup; an existing one's current status." }),
    position: z.number().int().min(1).nullable().meta({ description: "Its place in line: 1 + the waiting signups created before it. `null` once it is no longer waiting." }),
    referral_code: z.string().meta({ description: "The code of its referral link: `/join/{id}?ref=<code>`, or `referral_code` in this request." }),
  })
  .meta({ description: "The signup a join made: the specification's four fields, its id, status, place in line and referral code. Only a new signup is answered so: it is the joiner's own." });

/** What a join key may learn of an address already on the list: that it is, and nothing stored about that person (issue 29). */
export const alreadyOnListResponseSchema = z
  .strictObject({
    email: z.string().meta({ description: "The address as sent (trimmed), not as stored." }),
    already_on_list: z.literal(true).meta({ description: "Always `true`: the address (in any case) is on the list; nothing was created or changed." }),
    email_sent: z
      .boolean()
      .meta({
        description:
          "`true` when this server sends email (`SMTP_URL` is set): the address was sent a link to its own page (its place and referral link), at most 3 an hour and one a minute per signup, so within the hour it may have been the earlier one. The same for every address already on the list: it says nothing about the person. `false`: no email; only the list's owner can tell the person their place.",
      }),
  })
  .meta({
    description:
      "The answer for an address already on the list (200): no stored answers, no verified state, no status, place, id or referral code. A backend must not relay more than this: that the address is on the list and, with `email_sent`, that a link went to it.",
  });
