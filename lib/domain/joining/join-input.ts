import { z } from "zod";
import { unsafeCharacterIn } from "@/lib/core/single-line-text";
import { MAX_EMAIL_LENGTH } from "../signups/email-address";
import type { SignupStatus } from "../signups/status";
import type { SignupSource } from "../funnel/source";
import { isDisposableAddress } from "../fraud/disposable";
import type { JoinField, JoinSettings } from "./settings";

// What a join is given and what it answers, and the checks of its input that need no database.

/** The longest answer to a join form's field, on the page (its maxLength) and in the API alike. */
export const MAX_JOIN_INPUT_VALUE = 1000;
const emailSchema = z.email().max(MAX_EMAIL_LENGTH);

/** A signup as a join answers it: the /v1 signup's four fields plus its id, status, place in line and referral code. */
export interface JoinedSignup {
  id: number;
  email: string;
  verified: boolean;
  referral: boolean;
  custom_inputs: { label: string; value: string }[];
  status: SignupStatus;
  /** Its place in line (1 is next); null once it is no longer waiting. */
  position: number | null;
  referral_code: string;
}

export type JoinOutcome = { created: true; signup: JoinedSignup } | { created: false; signup: JoinedSignup };

/** What the join itself finds: a new signup, or only the id of the one the address already has (reading its place would cost time a stranger could measure). */
export type JoinFound = { created: true; signup: JoinedSignup } | { created: false; signupId: number };

/**
 * What a join may tell whoever asked (the page, /v1): a new signup is theirs; of an address the list
 * already had, nothing stored about that person (issue 29): the address as sent, and whether email
 * went to it (a setting of the server, the same for every such address).
 */
export type JoinReply = { created: true; signup: JoinedSignup } | { created: false; email: string; emailSent: boolean };

export type JoinRefusal = "not_found" | "closed" | "invalid_email" | "disposable_email" | "invalid_inputs" | "rate_limited";

/** Why a join was refused; its message may be shown to the person joining (it names nothing of other signups). */
export class JoinRefused extends Error {
  constructor(
    readonly reason: JoinRefusal,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "JoinRefused";
  }
}

export interface JoinInput {
  waitlistId: string;
  email: string;
  customInputs: { label: string; value: string }[];
  referralCode?: string;
  /** The client's limiter key (lib/http/client-address.ts): counted against JOINS_PER_CLIENT_PER_HOUR. */
  clientAddress?: string;
  /** Where the person came from (lib/domain/funnel/source.ts), validated by the transport. */
  source?: SignupSource;
}

/**
 * The answers matched to the form's fields, in the form's order: each label names a field (any
 * case), a required field has a non-empty answer, a choice is one of its options, every answer is
 * safe single-line text (lib/core/single-line-text.ts). An empty optional answer is left out.
 */
export function matchInputs(fields: readonly JoinField[], inputs: readonly { label: string; value: string }[]): { label: string; value: string }[] {
  const given = new Map<string, string>();
  for (const input of inputs) {
    const field = fields.find((each) => each.label.toLowerCase() === input.label.trim().toLowerCase());
    if (!field) throw new JoinRefused("invalid_inputs", fields.length === 0 ? "This form has no fields: send no custom inputs." : `The form has no field "${input.label.slice(0, 100)}" (its fields: ${fields.map((each) => each.label).join(", ")}).`);
    if (given.has(field.label)) throw new JoinRefused("invalid_inputs", `The field "${field.label}" is answered twice.`);
    const unsafe = unsafeCharacterIn(input.value);
    if (unsafe) throw new JoinRefused("invalid_inputs", `The answer to "${field.label}" contains ${unsafe}: answers are one line of plain text.`);
    given.set(field.label, input.value.trim());
  }
  const matched: { label: string; value: string }[] = [];
  for (const field of fields) {
    const value = given.get(field.label) ?? "";
    if (value === "") {
      if (field.required) throw new JoinRefused("invalid_inputs", `The field "${field.label}" is required.`);
      continue;
    }
    if (value.length > MAX_JOIN_INPUT_VALUE) throw new JoinRefused("invalid_inputs", `The answer to "${field.label}" is longer than ${MAX_JOIN_INPUT_VALUE} characters.`);
    if (field.type === "choice" && !field.options!.includes(value)) throw new JoinRefused("invalid_inputs", `"${field.label}" must be one of: ${field.options!.join(", ")}.`);
    matched.push({ label: field.label, value });
  }
  return matched;
}


/** A join's input as checked against its waitlist: the address trimmed, the answers matched, and whether the address is disposable (allowed, to be flagged). */
export interface CheckedJoin {
  email: string;
  customInputs: { label: string; value: string }[];
  disposable: boolean;
}

/** The address a join stores (and looks up, in any case): the one sent, trimmed. */
export function joinAddress(input: JoinInput): string {
  return input.email.trim();
}

/** Checks a join against its waitlist and the list's join settings (undefined: there is no such waitlist), in the order a person fixes them; throws JoinRefused. */
export function checkJoin(input: JoinInput, list: { waitlist: { name: string }; settings: JoinSettings } | undefined): CheckedJoin {
  if (!list) throw new JoinRefused("not_found", "This waitlist does not exist.");
  const { waitlist, settings } = list;
  if (settings.joining !== "open") throw new JoinRefused("closed", `${waitlist.name} is not taking signups right now.`);
  const unsafe = unsafeCharacterIn(input.email);
  const email = joinAddress(input);
  if (unsafe) throw new JoinRefused("invalid_email", `The email address contains ${unsafe}.`);
  if (!emailSchema.safeParse(email).success) throw new JoinRefused("invalid_email", "That is not a valid email address.");
  const disposable = settings.disposable !== "allow" && isDisposableAddress(email);
  if (disposable && settings.disposable === "refuse") throw new JoinRefused("disposable_email", "This waitlist does not accept addresses from disposable email services: please use an address of your own.");
  return { email, customInputs: matchInputs(settings.fields, input.customInputs), disposable };
}
