import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { dangerLinkClass, linkClass, mutedText } from "@/components/styles";
import { STATUS_LABELS } from "@/lib/domain/signups/status";
import { personPageUrl, personViewOf, type PersonView } from "@/lib/join/person-view";
import { requestOrigin } from "@/lib/http/origin";
import { JoinCard } from "../../join-card";
import { AnswersSection } from "./answers-section";
import { LinkProblem } from "./link-problem";
import { MilestonesSection } from "./milestones-section";
import { ReferralSection } from "./referral-section";

export const metadata: Metadata = { title: { absolute: "Your place on the waitlist" }, robots: { index: false, follow: false } };

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_WORDS = {
  waiting: "waiting for your turn",
  invited: "invited: your turn has come",
  completed: "in: you have been let in",
  rejected: "not let in",
} as const;

/** A person's own page, by the signed link every email to them carries (lib/join/person-view.ts). */
export default async function PersonPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const query = await searchParams;
  const view = await personViewOf(waitlistId, typeof query.t === "string" ? query.t : undefined);
  if (!view) notFound();
  if (view.kind !== "own") return <LinkProblem problem={view.kind} waitlistId={view.waitlist.id} waitlistName={view.waitlist.name} />;
  return <OwnPage view={view} query={query} origin={requestOrigin(await headers())} />;
}

/** How referrals moved the place (the waitlist's ranking rule): the person's own, or others' that passed them. */
function PlaceMoved({ place, byJoining }: { place: number | null; byJoining: number | null }) {
  if (place === null || byJoining === null || place === byJoining) return null;
  const count = (places: number) => `${places.toLocaleString("en-US")} place${places === 1 ? "" : "s"}`;
  return (
    <p data-testid="place-moved" className="mt-3 text-sm">
      {place < byJoining
        ? `Your referrals moved you up ${count(byJoining - place)}: by the order of joining alone you would be number ${byJoining.toLocaleString("en-US")}.`
        : `Others' referrals moved them ahead of you: by the order of joining alone you would be number ${byJoining.toLocaleString("en-US")}. Share your link to move up too.`}
    </p>
  );
}

function OwnPage({ view, query, origin }: { view: Extract<PersonView, { kind: "own" }>; query: Record<string, string | string[] | undefined>; origin: string }) {
  const { waitlist, signup, settings, token, referrals, placeByJoining, milestones } = view;
  const referralLink = `${origin}/join/${waitlist.id}?ref=${encodeURIComponent(signup.referral_code)}`;
  return (
    <JoinCard title={signup.position !== null ? `You're number ${signup.position.toLocaleString("en-US")} in line` : `Your place on the ${waitlist.name} waitlist`}>
      <p className={`mt-2 text-sm ${mutedText}`}>{waitlist.name} waitlist</p>
      <PlaceMoved place={signup.position} byJoining={placeByJoining} />
      <dl data-testid="person-status" className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className={mutedText}>Address</dt>
        <dd className="min-w-0 break-words">{signup.email}</dd>
        <dt className={mutedText}>Status</dt>
        <dd>
          {STATUS_LABELS[signup.status]} ({STATUS_WORDS[signup.status]})
        </dd>
        {settings.verification ? (
          <>
            <dt className={mutedText}>Address confirmed</dt>
            <dd>{signup.verified ? "yes" : "not yet: follow the link in the email we sent you"}</dd>
          </>
        ) : null}
      </dl>
      <ReferralSection link={referralLink} waitlistName={waitlist.name} referrals={referrals} />
      <MilestonesSection milestones={milestones} counted={referrals.counted} />
      <AnswersSection waitlistId={waitlist.id} token={token} fields={settings.fields} answers={signup.custom_inputs} saved={query.saved} error={query.error} />
      <section aria-labelledby="data-heading" className="mt-8">
        <h2 id="data-heading" className="text-base font-semibold">
          Your data
        </h2>
        <p className="mt-1 text-sm">
          <a href={personPageUrl(waitlist.id, token, "", "/download")} download className={`${linkClass} underline`}>
            Download my data
          </a>{" "}
          <span className={mutedText}>(a JSON file of everything this list keeps about you)</span>
        </p>
        <p className="mt-4 text-sm">
          <a href={personPageUrl(waitlist.id, token, "", "/leave")} className={dangerLinkClass}>
            Leave the list…
          </a>
        </p>
      </section>
    </JoinCard>
  );
}
