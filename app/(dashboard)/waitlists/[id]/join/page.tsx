import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { DoneNotice } from "@/components/done-notice";
import { focusRing, inputClass, linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { env } from "@/lib/core/env";
import { requestOrigin, requireAdminSession } from "@/lib/dashboard/auth";
import { embedSnippet } from "@/lib/dashboard/join-settings-form";
import { joinSettingsOf, MAX_SUCCESS_MESSAGE } from "@/lib/domain/joining/settings";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";
import { logoPathOf } from "@/lib/join/brand";
import { BrandFields } from "./brand-fields";
import { DisposableSetting } from "./disposable-setting";
import { FieldRows } from "./field-rows";
import { LogoForm } from "./logo-form";
import { RankingSection } from "./ranking-section";
import { rankingPreviewOf } from "@/lib/dashboard/ranking-form";
import { previewRankingRule } from "@/lib/domain/ranking/apply";
import { rankingRuleOf } from "@/lib/domain/ranking/rules";
import { milestonesOf } from "@/lib/domain/milestones/store";
import { MilestonesSection } from "./milestones-section";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

export const metadata: Metadata = { title: "Joining" };

const DONE = { saved: "Join settings saved.", logo_saved: "Logo saved.", logo_removed: "Logo removed.", ranking: "Ranking rule applied: places follow it now.", milestones: "Milestones saved." };

/** What saving the milestones did: and how many reached a new one at once. */
function milestonesDone(reached: unknown): string {
  const count = typeof reached === "string" && /^[0-9]{1,9}$/.test(reached) ? Number(reached) : 0;
  return count === 0 ? DONE.milestones : `${DONE.milestones} ${count.toLocaleString("en-US")} ${count === 1 ? "person" : "people"} reached a new one at once.`;
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// How people join a waitlist by themselves (admins only): open or closed, the form, verification, the challenge, the message, the embed.
export default async function JoiningPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = await searchParams;
  const settings = await joinSettingsOf(waitlist.id);
  const origin = await requestOrigin();
  const pageUrl = `${origin}/join/${waitlist.id}`;
  const snippet = embedSnippet(origin, waitlist, settings);
  const rule = await rankingRuleOf(waitlist.id);
  const previewed = rankingPreviewOf(query);
  // A preview runs the change in a transaction it rolls back (lib/domain/ranking/apply.ts): it waits for the write lock as a write does.
  const preview = previewed && { rule: previewed, moves: await writeWithoutBlocking(async () => await previewRankingRule(waitlist.id, previewed)) };
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-1 break-words text-2xl font-semibold">Joining {waitlist.name}</h1>
      <p className={`mt-1 max-w-2xl text-sm ${mutedText}`}>
        People join through the hosted page{" "}
        <a href={pageUrl} className={`${linkClass} break-all underline`} data-testid="join-page-link">
          {pageUrl}
        </a>{" "}
        (or your backend through <code>POST /v1/waitlist/{"{id}"}/signup</code>). The CLI does the same: <code>waitlists update --joining open</code>.
      </p>
      <DoneNotice done={query.done} messages={{ ...DONE, milestones: milestonesDone(query.reached) }} />
      {settings.verification && env().SMTP_URL === undefined ? (
        <div role="note" data-testid="smtp-unset" className="mt-4 max-w-2xl rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          Email is not configured: confirmation emails are kept in the log as “not sent”, and people who join see only “Check your inbox” (their place reaches them by email). Set <code>SMTP_URL</code>, <code>MAIL_FROM</code> and <code>PUBLIC_URL</code>: see{" "}
          <Link href="/docs/configuration" className="underline">
            Configuration
          </Link>
          .
        </div>
      ) : null}
      <form method="post" action={`/waitlists/${waitlist.id}/join/save`} className="mt-6 grid max-w-2xl gap-5">
        <fieldset className="grid gap-1">
          <legend className="text-sm font-medium">Joining</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="joining" value="open" defaultChecked={settings.joining === "open"} />
            Open: anyone with the link can join
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="joining" value="closed" defaultChecked={settings.joining === "closed"} />
            Closed: the page and the API refuse new signups
          </label>
        </fieldset>
        <div className="grid gap-1">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="verification" value="true" defaultChecked={settings.verification} aria-describedby="verification-cost" />
            Email verification: send each new signup a link to confirm the address
          </label>
          <p id="verification-cost" data-testid="verification-cost" className={`text-sm ${mutedText}`}>
            {env().SMTP_URL === undefined
              ? "Without verification, whoever types an address into the form can learn that it is on the list (never anything else), and since email is not configured, someone already on the list can only be told to check with you, the list's owner."
              : "Without verification, whoever types an address into the form can learn that it is on the list (never anything else); the address itself is emailed a link to its page."}
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="challenge" value="true" defaultChecked={settings.challenge} />
          Anti-spam challenge on the hosted page (proof of work; the page then needs JavaScript)
        </label>
        <DisposableSetting value={settings.disposable} />
        <FieldRows fields={settings.fields} />
        <label className="grid gap-1 text-sm font-medium">
          Success message
          <textarea name="success_message" rows={3} maxLength={MAX_SUCCESS_MESSAGE} defaultValue={settings.successMessage} className={inputClass} />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          Embed origins (one per line, such as https://www.example.com)
          <textarea name="embed_origins" rows={3} defaultValue={settings.embedOrigins.join("\n")} className={`${inputClass} font-mono`} aria-describedby="embed-hint" />
        </label>
        <p id="embed-hint" className={`-mt-3 text-sm ${mutedText}`}>
          Only pages of these origins may show the form in an iframe; without any, only this site may.
        </p>
        <BrandFields settings={settings} />
        <div>
          <button type="submit" className={primaryButtonClass}>
            Save
          </button>
        </div>
      </form>
      <LogoForm waitlistId={waitlist.id} logoUrl={await logoPathOf(waitlist.id)} />
      <RankingSection waitlistId={waitlist.id} rule={rule} preview={preview} />
      <MilestonesSection waitlistId={waitlist.id} milestones={await milestonesOf(waitlist.id)} />
      <section aria-labelledby="embed-heading" className="mt-8 max-w-2xl">
        <h2 id="embed-heading" className="text-lg font-semibold">
          Embed snippet
        </h2>
        <p className={`text-sm ${mutedText}`}>Paste it into a page of an embed origin above.</p>
        <div className="mt-2 flex items-start gap-2">
          <pre tabIndex={0} aria-label="Embed snippet" data-testid="embed-snippet" className={`${focusRing} min-w-0 flex-1 overflow-x-auto rounded-md bg-zinc-100 p-3 text-xs dark:bg-zinc-800`}>
            {snippet}
          </pre>
          <CopyButton value={snippet} label="Copy the embed snippet" />
        </div>
      </section>
    </>
  );
}
