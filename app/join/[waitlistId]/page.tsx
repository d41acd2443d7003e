import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { inputClass, linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { MAX_JOIN_INPUT_VALUE } from "@/lib/domain/joining/join-input";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";
import { JOIN_ERRORS, isJoinError, HONEYPOT_FIELD, fieldName } from "@/lib/join/form-fields";
import { joinBrandOf, joinPageMetadata, joinTitleOf } from "@/lib/join/brand";
import { waitlistOfPath } from "@/lib/join/public-form";
import { countJoinPageView } from "@/lib/domain/funnel/page-views";
import { sourceOfPageView, SOURCE_FIELDS } from "@/lib/domain/funnel/source";
import { BrandDescription } from "../brand-description";
import { accentStyle, JoinCard } from "../join-card";
import { AltchaField } from "./altcha-field";
import { GetLinkForm } from "./get-link-form";

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function waitlistOf(id: string) {
  const waitlist = await waitlistOfPath(id);
  if (!waitlist) notFound();
  return waitlist;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const waitlist = await waitlistOf((await params).waitlistId);
  return joinPageMetadata(waitlist, await joinSettingsOf(waitlist.id));
}

/** The hosted join form of a waitlist: a plain form POST (works without JavaScript), the challenge when it is on. */
export default async function JoinPage({ params, searchParams }: Props) {
  const waitlist = await waitlistOf((await params).waitlistId);
  const query = await searchParams;
  const settings = await joinSettingsOf(waitlist.id);
  const title = joinTitleOf(waitlist, settings);
  const brand = await joinBrandOf(waitlist, settings);
  if (settings.joining === "closed") {
    return (
      <JoinCard title={title} brand={brand}>
        <BrandDescription source={settings.description} />
        <p role="status" data-testid="join-closed" className={`mt-3 ${mutedText}`}>
          This waitlist is not taking new signups right now.
        </p>
        <GetLinkForm waitlistId={waitlist.id} answer={query.link} />
      </JoinCard>
    );
  }
  const ref = typeof query.ref === "string" ? query.ref.slice(0, 64) : "";
  const error = isJoinError(query.error) ? JOIN_ERRORS[query.error] : undefined;
  // The funnel (lib/domain/funnel): a view, and where it came from, carried to the join by the form.
  if (!error) countJoinPageView(waitlist.id);
  const requestHeaders = await headers();
  const source = sourceOfPageView(query, requestHeaders.get("referer"), requestHeaders.get("host"));
  return (
    <JoinCard title={title} brand={brand}>
      <BrandDescription source={settings.description} />
      <p className={`mt-2 text-sm ${mutedText}`}>Leave your email address to get your place in line.</p>
      {error ? (
        <p role="alert" data-testid="join-error" className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {error}
        </p>
      ) : null}
      <form method="post" action={`/join/${waitlist.id}/submit`} className="mt-4 flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="join-email" className="text-sm font-medium">
            Email address
          </label>
          <input id="join-email" name="email" type="email" required autoComplete="email" maxLength={MAX_EMAIL_LENGTH} className={`${inputClass} w-full text-base sm:text-sm`} />
        </div>
        {settings.fields.map((field, index) => (
          <div key={field.label} className="flex flex-col gap-1">
            <label htmlFor={`join-field-${index}`} className="text-sm font-medium">
              {field.label}
              {field.required ? null : <span className={`font-normal ${mutedText}`}> (optional)</span>}
            </label>
            {field.type === "choice" ? (
              <select id={`join-field-${index}`} name={fieldName(index)} required={field.required} defaultValue="" className={`${inputClass} w-full text-base sm:text-sm`}>
                <option value="">Choose…</option>
                {(field.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input id={`join-field-${index}`} name={fieldName(index)} type="text" required={field.required} maxLength={MAX_JOIN_INPUT_VALUE} className={`${inputClass} w-full text-base sm:text-sm`} />
            )}
          </div>
        ))}
        {/* A field people never see: a bot that fills in every field gives itself away. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="join-hp">Leave this field empty</label>
          <input id="join-hp" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        {ref ? <input type="hidden" name="ref" value={ref} /> : null}
        {SOURCE_FIELDS.map((field) => (source[field] ? <input key={field} type="hidden" name={field} value={source[field]} /> : null))}
        {settings.challenge ? (
          <AltchaField challengeUrl={`/join/${waitlist.id}/challenge`} />
        ) : null}
        <button type="submit" className={`${primaryButtonClass} py-2 text-base sm:text-sm`} style={accentStyle(brand)}>
          Join the waitlist
        </button>
      </form>
      {settings.leaderboard ? (
        <p className="mt-4 text-sm">
          <a href={`/join/${waitlist.id}/leaderboard`} className={linkClass}>
            See the top referrers
          </a>
        </p>
      ) : null}
      <GetLinkForm waitlistId={waitlist.id} answer={query.link} />
    </JoinCard>
  );
}
