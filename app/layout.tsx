import type { Metadata } from "next";
import { connection } from "next/server";
import { focusRing } from "@/components/styles";
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
        <a
          href="#main"
          className={`${focusRing} sr-only rounded-md bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 dark:bg-zinc-900`}
        >
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
