import type { Metadata } from "next";
import { connection } from "next/server";
import { SkipLink } from "@/components/skip-link";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Waitlist Admin", template: "%s · Waitlist Admin" },
  description: "Browse waitlists and their signups.",
};

export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  // Every page renders per request, so that Next.js can put the request's CSP nonce on its scripts
  // (proxy.ts): a page prerendered at build time would carry no nonce and its scripts would not run.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <SkipLink />
        {children}
      </body>
    </html>
  );
}
