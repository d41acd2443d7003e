import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Waitlist Admin", template: "%s · Waitlist Admin" },
  description: "Browse waitlists and their signups.",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {children}
      </body>
    </html>
  );
}
