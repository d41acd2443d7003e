import { LIST_ROW_BOUNDS, previewCustomInputs, type CustomInputsPreview } from "@/components/custom-inputs";
import { DAY_MS } from "@/lib/core/time";
import { expiryInWords } from "@/lib/domain/invitations/words";
import { signupPublicId } from "@/lib/domain/signups/id";
import type { SignupRow } from "@/lib/domain/signups/row";

/**
 * A row of the signups table as the page hands it to the browser: its custom inputs bounded
 * (LIST_ROW_BOUNDS), and an invited signup's "expires in 3 days" in words, as of the page's rendering.
 */
export type SignupListRow = Omit<SignupRow, "customInputs"> & { customInputs: CustomInputsPreview; position: number | null; invitationExpiry: string | null };

/** The list's invite links' lifetime, and the instant the page is rendered at. */
export interface InvitationClock {
  expiryDays: number;
  now?: number;
}

function labelOf(input: unknown): unknown {
  return input !== null && typeof input === "object" && "label" in input ? input.label : undefined;
}

/** `firstLabels`: the labels the table filters on, whose inputs come first (the cell shows only the first). */
export function toSignupListRow({ customInputs, ...row }: SignupRow & { position: number | null }, clock: InvitationClock, firstLabels: readonly string[] = []): SignupListRow {
  const first = new Set<unknown>(firstLabels);
  const ordered = first.size === 0 ? customInputs : [...customInputs.filter((input) => first.has(labelOf(input))), ...customInputs.filter((input) => !first.has(labelOf(input)))];
  const invitedAt = row.status === "invited" ? row.statusChangedAt : null;
  const invitationExpiry = invitedAt ? expiryInWords(invitedAt.getTime() + clock.expiryDays * DAY_MS, clock.now ?? Date.now()) : null;
  return { ...row, customInputs: previewCustomInputs(ordered, LIST_ROW_BOUNDS), invitationExpiry };
}

/** The signup's own page in the dashboard. */
export function signupPageHref(waitlistId: string, signup: SignupListRow): string {
  return `/waitlists/${waitlistId}/signups/${signupPublicId(signup.id)}`;
}
