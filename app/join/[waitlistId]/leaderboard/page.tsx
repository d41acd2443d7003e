import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { linkClass, mutedText } from "@/components/styles";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { joinBrandOf } from "@/lib/join/brand";
import { cachedLeaderboard, LEADERBOARD_TTL_MS } from "@/lib/join/leaderboard-cache";
import { waitlistOfPath } from "@/lib/join/public-form";
import { JoinCard } from "../../join-card";

type Props = { params: Promise<{ waitlistId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const waitlist = await waitlistOfPath((await params).waitlistId);
  return { title: { absolute: waitlist ? `Top referrers of the ${waitlist.name} waitlist` : "Not found" } };
}

/** A waitlist's public leaderboard, when it opted in (else 404): the top referrers by counted referrals, masked. */
export default async function LeaderboardPage({ params }: Props) {
  const waitlist = await waitlistOfPath((await params).waitlistId);
  const rows = waitlist ? await cachedLeaderboard(waitlist.id) : undefined;
  if (!waitlist || !rows) notFound();
  const brand = await joinBrandOf(waitlist, await joinSettingsOf(waitlist.id));
  return (
    <JoinCard title={`Top referrers of ${waitlist.name}`} brand={brand}>
      {rows.length === 0 ? (
        <p data-testid="leaderboard-empty" className={`mt-3 ${mutedText}`}>
          No referral has counted yet: share your link to be the first.
        </p>
      ) : (
        <ol data-testid="leaderboard" className="mt-4 grid gap-2">
          {rows.map((row) => (
            <li key={row.rank} className="flex min-w-0 items-baseline justify-between gap-4 border-b border-zinc-200 pb-2 text-sm last:border-b-0 dark:border-zinc-800">
              <span className="min-w-0 truncate">
                <span className={`mr-2 tabular-nums ${mutedText}`}>{row.rank}.</span>
                <span data-testid="leaderboard-referrer">{row.referrer}</span>
              </span>
              <span className="shrink-0 tabular-nums">
                {row.referrals.toLocaleString("en-US")} referral{row.referrals === 1 ? "" : "s"}
              </span>
            </li>
          ))}
        </ol>
      )}
      <p className={`mt-4 text-xs ${mutedText}`}>
        Counted referrals only (a friend who joined through the link, confirmed where the list asks, not the referrer&apos;s own address again). Updated every {LEADERBOARD_TTL_MS === 60_000 ? "minute" : `${LEADERBOARD_TTL_MS / 60_000} minutes`}.
      </p>
      <p className="mt-4 text-sm">
        <a href={`/join/${waitlist.id}`} className={linkClass}>
          Join the waitlist
        </a>
      </p>
    </JoinCard>
  );
}
