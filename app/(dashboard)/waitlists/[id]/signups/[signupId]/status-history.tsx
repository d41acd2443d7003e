import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { buttonClass, cardClass, dangerLinkClass, mutedText } from "@/components/styles";
import type { SignupEvent } from "@/lib/domain/events";
import { INVITATION_EVENT_WORDS } from "@/lib/domain/invitations/words";
import { actionsFrom, STATUS_ACTION_NAMES, STATUS_ACTIONS, type SignupStatus } from "@/lib/domain/signups/status";

/** What a status event (or the scheduler's: a reminder, an expiry) says happened ("Invited"); undefined for other events. */
function happened(type: string): string | undefined {
  const action = STATUS_ACTION_NAMES.find((name) => STATUS_ACTIONS[name].event === type);
  return action ? STATUS_ACTIONS[action].happened : INVITATION_EVENT_WORDS[type];
}

interface StatusHistoryProps {
  createdAt: Date;
  events: SignupEvent[];
  /** The signup's status now, and for an admin where its actions' confirmations are. */
  status: SignupStatus;
  actionHref?: (action: keyof typeof STATUS_ACTIONS) => string;
}

/** A signup's status history (its events, oldest first) and, for an admin, the actions valid for its status now. */
export function StatusHistory({ createdAt, events, status, actionHref }: StatusHistoryProps) {
  const entries = [{ what: "Signed up", at: createdAt }, ...events.flatMap((event) => (happened(event.type) ? [{ what: happened(event.type)!, at: event.at }] : []))];
  return (
    <section aria-labelledby="status-history" className="mt-8">
      <h2 id="status-history" className="text-lg font-semibold">
        Status history
      </h2>
      <ol className={`mt-2 divide-y divide-zinc-200 dark:divide-zinc-800 ${cardClass}`} data-testid="status-history">
        {entries.map((entry, index) => (
          <li key={index} className="flex flex-wrap justify-between gap-x-4 px-4 py-2 text-sm">
            <span>{entry.what}</span>
            <time dateTime={entry.at.toISOString()} className={mutedText}>
              {formatDateTime(entry.at)} UTC
            </time>
          </li>
        ))}
      </ol>
      {actionHref ? (
        <div className="mt-3 flex flex-wrap gap-2" data-testid="status-actions">
          {actionsFrom(status).map((action) => (
            <Link key={action} href={actionHref(action)} className={action === "reject" ? dangerLinkClass : buttonClass}>
              {STATUS_ACTIONS[action].label}…
            </Link>
          ))}
        </div>
      ) : null}
    </section>
  );
}
