import { inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { MAX_JOIN_INPUT_VALUE } from "@/lib/domain/joining/join-input";
import type { JoinField } from "@/lib/domain/joining/settings";
import { fieldName } from "@/lib/join/form-fields";

const SAVED = { changed: "Your answers are saved.", same: "Nothing changed: your answers were already these." } as const;

/** The person's answers to the join form, editable by its rules (POST /join/{id}/me/answers); with what the last save said. */
export function AnswersSection(props: { waitlistId: string; token: string; fields: JoinField[]; answers: { label: string; value: string }[]; saved: unknown; error: unknown }) {
  const { waitlistId, token, fields, answers } = props;
  if (fields.length === 0) return null;
  const saved = props.saved === "changed" || props.saved === "same" ? SAVED[props.saved] : undefined;
  const answerTo = (label: string) => answers.find((answer) => answer.label.toLowerCase() === label.toLowerCase())?.value ?? "";
  return (
    <section id="answers" aria-labelledby="answers-heading" className="mt-8">
      <h2 id="answers-heading" className="text-base font-semibold">
        Your answers
      </h2>
      {saved ? (
        <p role="status" data-testid="answers-saved" className="mt-2 text-sm">
          {saved}
        </p>
      ) : null}
      {typeof props.error === "string" ? (
        <p role="alert" data-testid="answers-error" className="mt-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          Not saved: {props.error}
        </p>
      ) : null}
      <form method="post" action={`/join/${waitlistId}/me/answers`} className="mt-3 flex flex-col gap-4">
        <input type="hidden" name="t" value={token} />
        {fields.map((field, index) => (
          <div key={field.label} className="flex flex-col gap-1">
            <label htmlFor={`me-field-${index}`} className="text-sm font-medium">
              {field.label}
              {field.required ? null : <span className={`font-normal ${mutedText}`}> (optional)</span>}
            </label>
            {field.type === "choice" ? (
              <select id={`me-field-${index}`} name={fieldName(index)} defaultValue={answerTo(field.label)} className={`${inputClass} w-full text-base sm:text-sm`}>
                <option value="">Choose…</option>
                {(field.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input id={`me-field-${index}`} name={fieldName(index)} type="text" defaultValue={answerTo(field.label)} maxLength={MAX_JOIN_INPUT_VALUE} className={`${inputClass} w-full text-base sm:text-sm`} />
            )}
          </div>
        ))}
        <button type="submit" className={`${primaryButtonClass} self-start py-2`}>
          Save my answers
        </button>
      </form>
    </section>
  );
}
