import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConfirmForm } from "@/components/confirm-form";
import { formatCount } from "@/components/format";
import { linkClass, mutedText } from "@/components/styles";
import { AppError } from "@/lib/core/errors";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { readInBackground } from "@/lib/dashboard/read-pool-client";
import { parseStatusSelection, searchParamEntries, type DashboardStatusSelection } from "@/lib/dashboard/status-selection";
import { isStatusAction, STATUS_ACTIONS, type StatusAction } from "@/lib/domain/signups/status";
import type { StatusPreview } from "@/lib/domain/signups/status-preview";
import { filterWords } from "@/lib/domain/signups/transitions";
import { Breadcrumb } from "../../breadcrumb";
import { findWaitlist } from "../../find-waitlist";
import { ActionEmailsNote, ActionEmailTest } from "./action-emails-note";
import { FocusedHeading } from "./focused-heading";

type Props = {
  params: Promise<{ id: string; action: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { action } = await params;
  return { title: isStatusAction(action) ? `${STATUS_ACTIONS[action].label} signups` : "Not found" };
}

const signups = (count: number) => `${formatCount(count)} signup${count === 1 ? "" : "s"}`;

/** Which signups, in words: the selected rows, the next N of a filter, or every match of it. */
function SelectionWords({ action, chosen }: { action: StatusAction; chosen: DashboardStatusSelection }) {
  const { from } = STATUS_ACTIONS[action];
  if (chosen.ids) return <p>The {signups(chosen.ids.length)} you selected.</p>;
  const words = filterWords(chosen.filter ?? {});
  return (
    <>
      <p data-testid="selection-filter">{words.length > 0 ? <>Filter: {words.join(", ")}.</> : "No filter: the whole list."}</p>
      <p>{chosen.limit === undefined ? `Every ${from} signup the filter matches, across all pages.` : from === "waiting" ? `The next ${signups(chosen.limit)} in line the filter matches.` : `The oldest ${signups(chosen.limit)} the filter matches that are ${from}.`}</p>
    </>
  );
}

/** The numbers: how many the selection names, how many change, and what is left as it is. */
function Numbers({ action, preview, byRows }: { action: StatusAction; preview: StatusPreview; byRows: boolean }) {
  const { from, to } = STATUS_ACTIONS[action];
  const named = byRows ? `${signups(preview.named)} selected are on the list` : `${preview.exact ? "" : "At least "}${signups(preview.named)} match the filter`;
  const unchanged = preview.unchanged.map(({ status, count }) => `${formatCount(count)} ${status}`).join(", ");
  return (
    <ul className="list-disc space-y-1 pl-5" data-testid="action-numbers">
      <li>{named.charAt(0).toUpperCase() + named.slice(1)}.</li>
      <li>
        <strong data-testid="action-count">{formatCount(preview.changes)}</strong> {preview.changes === 1 ? "is" : "are"} {from} and will become {to}.
      </li>
      {unchanged ? <li>Left as they are: {unchanged}.</li> : null}
      {preview.missing > 0 ? <li>{signups(preview.missing)} you selected {preview.missing === 1 ? "is" : "are"} no longer on the list.</li> : null}
    </ul>
  );
}

// The confirmation of a status action on a selection (lib/dashboard/status-selection.ts): what it
// names, how many change, the first of them; the form posts the same selection to ./confirm.
export default async function StatusActionPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const { id, action } = await params;
  const waitlist = await findWaitlist(id);
  if (!waitlist || !isStatusAction(action)) notFound();
  const { label, from, to, event, phrase } = STATUS_ACTIONS[action];
  let chosen: DashboardStatusSelection;
  try {
    chosen = parseStatusSelection(waitlist.id, searchParamEntries(await searchParams));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return (
      <>
        <Breadcrumb waitlist={waitlist} />
        <h1 className="mt-2 text-2xl font-semibold">{label}: nothing to do</h1>
        <p role="alert" className="mt-4 text-sm" data-testid="selection-error">
          {error.message}
        </p>
        <p className="mt-4 text-sm">
          <Link href={`/waitlists/${waitlist.id}`} className={`${linkClass} underline`}>
            Back to {waitlist.name}
          </Link>
        </p>
      </>
    );
  }
  const preview = await readInBackground("previewStatusAction", action, chosen.selection);
  const single = preview.changes === 1 && preview.first.length === 1 ? preview.first[0]!.email : undefined;
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <FocusedHeading>{preview.changes === 0 ? `Nothing to change: ${label.toLowerCase()}` : `${phrase(single ?? signups(preview.changes))}?`}</FocusedHeading>
      <div className="mt-4 max-w-2xl space-y-3 text-sm">
        <SelectionWords action={action} chosen={chosen} />
        <Numbers action={action} preview={preview} byRows={chosen.ids !== undefined} />
        {preview.changes > 0 ? <ActionEmailsNote waitlistId={waitlist.id} action={action} count={preview.changes} /> : null}
        {preview.first.length > 0 ? (
          <div>
            <p>{preview.changes > preview.first.length ? `The first ${preview.first.length}, ${from === "waiting" ? "in line" : "oldest first"}:` : from === "waiting" ? "In line:" : "Oldest first:"}</p>
            <ol className="mt-1 list-decimal space-y-0.5 pl-6 font-mono text-xs" data-testid="first-emails">
              {preview.first.map((signup) => (
                <li key={signup.id} className="break-all">
                  {signup.email}
                </li>
              ))}
            </ol>
          </div>
        ) : null}
        {preview.changes === 0 ? (
          <p data-testid="nothing-to-do">Only a {from} signup can become {to}: nothing would change.</p>
        ) : (
          <p className={mutedText}>
            Each change is recorded as one <code>{event}</code> event (what webhooks and the events feed deliver), and the audit log records this action once, with its count and the
            selection in words.{chosen.ids ? "" : " The filter is applied again when you confirm, so the numbers are those of that moment."}
          </p>
        )}
      </div>
      {preview.changes === 0 ? (
        <p className="mt-6 text-sm">
          <Link href={chosen.returnTo} className={`${linkClass} underline`}>
            Back
          </Link>
        </p>
      ) : (
        <ConfirmForm
          action={`/waitlists/${waitlist.id}/status/${action}/confirm`}
          hidden={chosen.fields}
          submit={phrase(single ? "this signup" : signups(preview.changes))}
          tone={action === "reject" ? "danger" : "primary"}
          cancelHref={chosen.returnTo}
        />
      )}
      {/* After the decision, so that the confirm button is the first stop after the text. */}
      {preview.changes > 0 ? <ActionEmailTest waitlistId={waitlist.id} action={action} /> : null}
    </>
  );
}
