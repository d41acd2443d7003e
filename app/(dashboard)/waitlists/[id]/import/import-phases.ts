import type { UploadState } from "./use-import-upload";

/** The steps of an import, as the one progress bar shows them: each owns a range of it, in order. */
export const IMPORT_STEPS = [
  { step: "uploading", label: "Uploading", from: 0, to: 40 },
  { step: "importing", label: "Importing", from: 40, to: 90 },
  { step: "finishing", label: "Updating counts and search", from: 90, to: 100 },
] as const;

export type ImportStep = (typeof IMPORT_STEPS)[number]["step"];

function within(step: ImportStep, done: number, total: number): number {
  const { from, to } = IMPORT_STEPS.find((each) => each.step === step)!;
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  return Math.floor(from + share * (to - from));
}

/**
 * Where a running import stands on the one bar (0–100) and in which step. The upload fills the first
 * range; the server's reading of the file the second (validating a file with invalid rows reads it
 * again, within the same range); updating counts and search indexes the last, which has no
 * measure of its own and so shows its start. Callers keep the highest value seen, so the bar never goes back.
 */
export function importPosition(state: Extract<UploadState, { stage: "uploading" | "server" }>): { step: ImportStep; value: number } {
  if (state.stage === "uploading") return { step: "uploading", value: within("uploading", state.sent, state.total) };
  if (state.phase === "received") return { step: "importing", value: within("importing", 0, 1) };
  if (state.phase === "deriving") return { step: "finishing", value: within("finishing", 0, 1) };
  return { step: "importing", value: within("importing", state.done, state.total) };
}
