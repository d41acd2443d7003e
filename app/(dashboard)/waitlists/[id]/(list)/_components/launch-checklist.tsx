import Link from "next/link";
import { cardClass, linkClass, mutedText } from "@/components/styles";
import { LAUNCH_STEPS, type LaunchStep } from "@/lib/domain/waitlists/launch-steps";

/** Each step: what to do, and where (its link). */
function stepText(step: LaunchStep, waitlistId: string): { label: string; href: string; action: string } {
  switch (step) {
    case "joining":
      return { label: "Open joining", href: `/waitlists/${waitlistId}/join`, action: "Joining settings" };
    case "branding":
      return { label: "Brand the join page (headline, description, colour or logo)", href: `/waitlists/${waitlistId}/join#branding`, action: "Branding" };
    case "email":
      return { label: "Configure email (SMTP_URL), for confirmations and invitations", href: "/docs/configuration", action: "Configuration" };
    case "first_signup":
      return { label: "Get a first signup on the join page", href: `/join/${waitlistId}`, action: "Open the join page" };
    case "first_invitation":
      return { label: "Invite a first signup", href: `/waitlists/${waitlistId}?status=waiting#signups-heading`, action: "Signups waiting" };
    case "product":
      return { label: "Connect your product: set the invite URL, and have a first invitation redeemed", href: "/docs/connect-your-product", action: "How to connect" };
  }
}

/**
 * What a new waitlist still needs before its launch, ticked from the data (lib/domain/waitlists/launch-steps.ts),
 * for admins: open while fewer than half of the steps are done, folded after that, gone once all are.
 */
export async function LaunchChecklist({ waitlistId, steps }: { waitlistId: string; steps: Promise<Record<LaunchStep, boolean>> }) {
  const done = await steps;
  const doneCount = LAUNCH_STEPS.filter((step) => done[step]).length;
  if (doneCount === LAUNCH_STEPS.length) return null;
  return (
    <details open={doneCount < LAUNCH_STEPS.length / 2} className={`${cardClass} mt-4 p-4`} data-testid="launch-checklist">
      <summary className="cursor-pointer text-sm font-semibold">
        Launch checklist: {doneCount} of {LAUNCH_STEPS.length} done
      </summary>
      <ol className="mt-3 space-y-2 text-sm">
        {LAUNCH_STEPS.map((step) => {
          const { label, href, action } = stepText(step, waitlistId);
          return (
            <li key={step} className="flex flex-wrap items-baseline gap-x-2" data-step={step} data-done={done[step]}>
              <span aria-hidden="true" className={done[step] ? "text-green-700 dark:text-green-400" : mutedText}>
                {done[step] ? "✓" : "○"}
              </span>
              <span className={done[step] ? `line-through ${mutedText}` : undefined}>{label}</span>
              <span className="sr-only">{done[step] ? "(done)" : "(to do)"}</span>
              {done[step] ? null : (
                <Link href={href} className={linkClass}>
                  {action}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
