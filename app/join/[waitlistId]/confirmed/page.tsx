import type { Metadata } from "next";
import { ConfirmOutcomeCard } from "./outcome-card";

export const metadata: Metadata = { title: { absolute: "Confirm your address" } };

/** What confirming did (/join/{id}/confirm/submit sends here with `?outcome=`). */
export default async function ConfirmedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { outcome } = await searchParams;
  return <ConfirmOutcomeCard outcome={typeof outcome === "string" ? outcome : undefined} />;
}
