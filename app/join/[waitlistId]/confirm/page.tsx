import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { buttonClass, mutedText } from "@/components/styles";
import { confirmLinkOf } from "@/lib/join/confirm";
import { JoinCard } from "../../join-card";
import { ConfirmOutcomeCard } from "../confirmed/outcome-card";

export const metadata: Metadata = { title: { absolute: "Confirm your address" } };

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The confirmation email's link. Opening it changes nothing: the address is confirmed by the button,
 * a POST, so that a mail scanner that opens every link of a message confirms no one.
 */
export default async function ConfirmPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const { token } = await searchParams;
  const link = await confirmLinkOf(waitlistId, typeof token === "string" ? token : "");
  if (!link) notFound();
  if (link.problem) return <ConfirmOutcomeCard outcome={link.problem} />;
  return (
    <JoinCard title="Confirm your address">
      <p className={`mt-3 ${mutedText}`}>Confirm that this address is yours to keep your place on the {link.waitlistName} waitlist.</p>
      <form method="post" action={`/join/${link.waitlistId}/confirm/submit`} className="mt-4">
        <input type="hidden" name="token" value={link.token} />
        <button type="submit" className={buttonClass}>
          Confirm my address
        </button>
      </form>
    </JoinCard>
  );
}
