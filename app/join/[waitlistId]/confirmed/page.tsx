import type { Metadata } from "next";
import { ConfirmOutcomeCard } from "./outcome-card";

export const metadata: Metadata = { title: { absolute: "Confirm your address" } };

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** What confirming did (/join/{id}/confirm/submit sends here with `?outcome=`, `t` for the joined page and `p` for the person's own page, each page checking its token). */
export default async function ConfirmedPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const { outcome, t, p } = await searchParams;
  const token = (value: unknown) => typeof value === "string" && /^[A-Za-z0-9_.-]{1,400}$/.test(value);
  const page = token(t) ? `/join/${encodeURIComponent(waitlistId)}/joined?t=${encodeURIComponent(t as string)}` : undefined;
  const personPage = token(p) ? `/join/${encodeURIComponent(waitlistId)}/me?t=${encodeURIComponent(p as string)}` : undefined;
  return <ConfirmOutcomeCard outcome={typeof outcome === "string" ? outcome : undefined} page={page} personPage={personPage} />;
}
