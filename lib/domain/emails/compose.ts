import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { emailBrandOf } from "./brand";
import { emailHtml } from "./layout";

// The one point where an email gets its HTML: the sender (lib/delivery/sender.ts) composes each
// email delivery as it sends it, from the text stored in the delivery and the waitlist's brand as it
// is then; "send a test" and the dashboard's preview compose theirs here too.

export interface PlainEmail {
  to: string;
  subject: string;
  text: string;
}

export interface ComposedEmail extends PlainEmail {
  /** The HTML alternative; absent when the waitlist is gone (the text goes alone). */
  html?: string;
}

export async function composeEmail(waitlistId: string, email: PlainEmail, publicUrl = env().PUBLIC_URL, db: AppDatabase = getDb()): Promise<ComposedEmail> {
  const brand = await emailBrandOf(waitlistId, publicUrl, db);
  return brand ? { ...email, html: emailHtml({ subject: email.subject, text: email.text, brand }) } : email;
}
