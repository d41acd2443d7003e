import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { cardClass, linkClass, mutedText } from "@/components/styles";
import type { FoundSignup } from "@/lib/domain/signups/find";
import { signupPublicId } from "@/lib/domain/signups/id";

interface FoundSignupsProps {
  heading: string;
  matches: FoundSignup[];
  /** More signups match than are listed. */
  more: boolean;
  empty: string;
  testId: string;
}

/** Signups found across waitlists: which waitlist, the address, when, and a link to the signup's page. */
export function FoundSignups({ heading, matches, more, empty, testId }: FoundSignupsProps) {
  return (
    <section aria-label={heading} data-testid={testId}>
      <h2 className="text-lg font-semibold">{heading}</h2>
      {matches.length === 0 ? (
        <p className={`mt-2 text-sm ${mutedText}`}>{empty}</p>
      ) : (
        <div className={`${cardClass} mt-2 overflow-x-auto`}>
          <table className="w-full min-w-[640px] text-left text-sm">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
              <tr>
                <th scope="col" className="px-4 py-2">
                  Waitlist
                </th>
                <th scope="col" className="px-4 py-2">
                  Email
                </th>
                <th scope="col" className="px-4 py-2">
                  Signed up (UTC)
                </th>
              </tr>
            </thead>
            <tbody>
              {matches.map((match) => (
                <tr key={`${match.waitlistId}:${match.signupId}`} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60">
                  <td className="px-4 py-2">
                    <Link href={`/waitlists/${match.waitlistId}`} className={linkClass}>
                      {match.waitlistName}
                    </Link>
                  </td>
                  <td className="px-4 py-2">
                    <Link href={`/waitlists/${match.waitlistId}/signups/${signupPublicId(match.signupId)}`} className={`${linkClass} font-medium`}>
                      {match.email}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap px-4 py-2">
                    <time dateTime={match.createdAt.toISOString()}>{formatDateTime(match.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more ? <p className={`mt-2 text-sm ${mutedText}`}>Only the first {matches.length} are listed: type more of the address to narrow them.</p> : null}
    </section>
  );
}
