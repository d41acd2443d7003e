import Link from "next/link";
import { buttonClass, dangerButtonClass, inputClass, primaryButtonClass } from "@/components/styles";

export interface ConfirmFormProps {
  /** The route that does it (a POST). */
  action: string;
  hidden?: Record<string, string>;
  /** What to type to confirm (the waitlist's name, the address), compared again by the server. */
  typed?: { label: React.ReactNode };
  /** The server found what was typed wrong: nothing happened. */
  mismatch?: string;
  /** The button: says what happens. */
  submit: string;
  /** Red for what cannot be undone (the default), blue for what can. */
  tone?: "danger" | "primary";
  cancelHref: string;
}

/**
 * The one way every destructive or bulk action is confirmed, below a page that says what changes: an
 * optional field to type the thing's name, a button naming the action, and Cancel.
 */
export function ConfirmForm({ action, hidden = {}, typed, mismatch, submit, tone = "danger", cancelHref }: ConfirmFormProps) {
  return (
    <form method="post" action={action} className="mt-6 grid max-w-2xl gap-3">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {typed ? (
        <label className="grid gap-1 text-sm font-medium">
          <span>{typed.label}</span>
          <input name="confirm" required maxLength={400} autoComplete="off" spellCheck={false} aria-invalid={mismatch ? true : undefined} className={`${inputClass} w-full max-w-md`} />
        </label>
      ) : null}
      {mismatch ? (
        <p role="alert" data-testid="confirm-mismatch" className="text-sm text-red-700 dark:text-red-400">
          {mismatch}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={tone === "danger" ? dangerButtonClass : primaryButtonClass}>
          {submit}
        </button>
        <Link href={cancelHref} className={buttonClass}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
