import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireSession } from "@/lib/dashboard/auth";
import { findWaitlist } from "./find-waitlist";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  // The title names the waitlist: never for a request without a valid session.
  await requireSession();
  const waitlist = await findWaitlist((await params).id);
  return { title: waitlist ? waitlist.name : "Waitlist not found" };
}

// The lookup happens here, outside every loading boundary below, so an unknown id is a real 404.
export default async function WaitlistLayout({ params, children }: Params & { children: React.ReactNode }) {
  await requireSession();
  if (!await findWaitlist((await params).id)) notFound();
  return children;
}
