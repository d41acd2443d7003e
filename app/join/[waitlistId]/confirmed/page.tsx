import type { Metadata } from "next";
import { ConfirmOutcomeCard } from "./outcome-card";

export const metadata: Metadata = { title: { absolute: "Confirm your address" } };

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** What confirming did (/join/{id}/confirm/submit sends here with `?outcome=`, and `t`: the person's page, which the joined page checks). */
export default async function ConfirmedPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const { outcome, t } = await searchParams;
  const page = typeof t === "string" && /^[A-Za-z0-9_.-]{1,400}$/.test(t) ? `/join/${encodeURIComponent(waitlistId)}/joined?t=${encodeURIComponent(t)}` : undefined;
  return <ConfirmOutcomeCard outcome={typeof outcome === "string" ? outcome : undefined} page={page} />;
}
