import "server-only";
import { z } from "zod";
import type { DisposablePolicy, JoinField, JoinSettings, JoinSettingsChange } from "@/lib/domain/joining/settings";

// The dashboard's "Joining" form as settings: plain HTML fields (it works without JavaScript), one
// row per form field (`field_label_N`, `field_type_N`, `field_options_N` comma-separated,
// `field_required_N`); a row without a label is dropped. The domain validates the result
// (updateJoinSettings), so the rules live in one place.

/** Rows the page shows: the fields there are and this many empty ones to add more. */
export const EMPTY_FIELD_ROWS = 2;

/** The form's text fields, whatever they are: parsed into settings below. */
export const joinSettingsFormSchema = z.record(z.string(), z.string());

const lines = (text: string | undefined) => (text ?? "").split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");

/** The settings the form's fields say. */
export function joinSettingsFromForm(form: Record<string, string>): JoinSettingsChange {
  const fields: JoinField[] = [];
  for (let index = 0; `field_label_${index}` in form; index++) {
    const label = form[`field_label_${index}`]!.trim();
    if (label === "") continue;
    const type = form[`field_type_${index}`] === "choice" ? "choice" : "text";
    const options = (form[`field_options_${index}`] ?? "").split(",").map((option) => option.trim()).filter((option) => option !== "");
    fields.push({ label, type, ...(type === "choice" ? { options } : {}), required: form[`field_required_${index}`] === "true" });
  }
  return {
    joining: form.joining === "open" ? "open" : "closed",
    verification: form.verification === "true",
    challenge: form.challenge === "true",
    successMessage: (form.success_message ?? "").replace(/\r\n/g, "\n"),
    embedOrigins: lines(form.embed_origins),
    fields,
    headline: form.headline ?? "",
    description: (form.description ?? "").replace(/\r\n/g, "\n"),
    accentColor: form.accent_color ?? "",
    leaderboard: form.leaderboard === "true",
    // Validated by the domain: an unknown word is refused there.
    ...(form.disposable !== undefined ? { disposable: form.disposable as DisposablePolicy } : {}),
  };
}

/** The snippet a website pastes to show the join form: an iframe of the hosted page. */
export function embedSnippet(origin: string, waitlist: { id: string; name: string }, settings: Pick<JoinSettings, "fields">): string {
  const height = 420 + 80 * settings.fields.length;
  const title = `Join the ${waitlist.name} waitlist`.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<iframe src="${origin}/join/${waitlist.id}" title="${title}" style="width: 100%; max-width: 480px; height: ${height}px; border: 0" loading="lazy"></iframe>`;
}
