import { LIST_ROW_BOUNDS, previewCustomInputs, type CustomInputsPreview } from "@/components/custom-inputs";
import { signupPublicId } from "@/lib/domain/signups/id";
import type { SignupRow } from "@/lib/domain/signups/row";

/** A row of the signups table as the page hands it to the browser: its custom inputs bounded (LIST_ROW_BOUNDS). */
export type SignupListRow = Omit<SignupRow, "customInputs"> & { customInputs: CustomInputsPreview; position: number | null };

function labelOf(input: unknown): unknown {
  return input !== null && typeof input === "object" && "label" in input ? input.label : undefined;
}

/** `firstLabels`: the labels the table filters on, whose inputs come first (the cell shows only the first). */
export function toSignupListRow({ customInputs, ...row }: SignupRow & { position: number | null }, firstLabels: readonly string[] = []): SignupListRow {
  const first = new Set<unknown>(firstLabels);
  const ordered = first.size === 0 ? customInputs : [...customInputs.filter((input) => first.has(labelOf(input))), ...customInputs.filter((input) => !first.has(labelOf(input)))];
  return { ...row, customInputs: previewCustomInputs(ordered, LIST_ROW_BOUNDS) };
}

/** The signup's own page in the dashboard. */
export function signupPageHref(waitlistId: string, signup: SignupListRow): string {
  return `/waitlists/${waitlistId}/signups/${signupPublicId(signup.id)}`;
}
