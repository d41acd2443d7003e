import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { linkClass, mutedText } from "@/components/styles";
import { env } from "@/lib/core/env";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";
import { ImportForm } from "./import-form";

export const metadata: Metadata = { title: "Import signups" };

// Upload a CSV, JSON or NDJSON file of signups (admins only): the CLI's import, run by the server.
export default async function ImportSignupsPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-2 break-words text-2xl font-semibold">Import signups into {waitlist.name}</h1>
      <p className={`mt-2 max-w-2xl text-sm ${mutedText}`}>
        The same files and rules as <code className="font-mono text-xs">signups import</code> in the CLI: all or nothing (one invalid row and nothing is
        imported, with the first ten problems by line), emails already in the waitlist or repeated in the file are skipped, and a{" "}
        <code className="font-mono text-xs">created_at</code> column keeps each signup&apos;s date. The columns are those of the CSV export (email, verified,
        referral, custom_inputs, created_at; only email is required); any other column becomes a custom input. Choose a file to see, before importing, which
        column becomes what.
      </p>
      <p className="mt-2 text-sm">
        <a href="/signups-template.csv" download="signups-template.csv" className={`${linkClass} underline`}>
          Download a template CSV
        </a>{" "}
        <span className={mutedText}>(every column the import reads, and two custom inputs)</span>
      </p>
      <noscript>
        <p className="mt-4 max-w-2xl text-sm">Importing from the browser needs JavaScript. Without it, use the CLI: npm run cli -- signups import --waitlist {waitlist.id} file.csv</p>
      </noscript>
      <ImportForm waitlistId={waitlist.id} maxBytes={env().IMPORT_MAX_BYTES} />
    </>
  );
}
