import { LIST_ROW_BOUNDS, previewCustomInputs, type CustomInputsPreview } from "@/components/custom-inputs";
import type { SignupRow } from "@/lib/domain/signups/row";

/** A row of the signups table as the page hands it to the browser: its custom inputs bounded (LIST_ROW_BOUNDS). */
export type SignupListRow = Omit<SignupRow, "customInputs"> & { customInputs: CustomInputsPreview };

export function toSignupListRow({ customInputs, ...row }: SignupRow): SignupListRow {
  return { ...row, customInputs: previewCustomInputs(customInputs, LIST_ROW_BOUNDS) };
}
