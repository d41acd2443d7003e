import { createTransport, type Transporter } from "nodemailer";
import type { Outcome } from "@/lib/domain/deliveries/sending";

// Emails through the mail server of SMTP_URL (smtp:// with STARTTLS when offered, or smtps://), one
// message per delivery: the text, and with an HTML alternative (lib/domain/emails/compose.ts) a
// multipart/alternative message of both. The SMTP reply is what the log keeps ("250 2.0.0 Ok: queued").

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<Outcome>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
  const transport: Transporter = createTransport(smtpUrl, { from });
  // nodemailer's own timeouts cover connecting and each reply; this one the whole exchange.
  Object.assign(transport.options, { connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  return {
    async send(mail) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<Outcome>((resolve) => {
        timer = setTimeout(() => resolve({ kind: "failed", error: `the mail server did not accept the message within ${timeoutMs / 1000} s` }), timeoutMs);
      });
      const sent = transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html === undefined ? {} : { html: mail.html }) }).then(
        (info: { response?: string }): Outcome => ({ kind: "sent", response: info.response ?? "accepted" }),
        (error: { responseCode?: number; response?: string; message?: string }): Outcome => ({
          kind: "failed",
          ...(error.response ? { response: error.response } : {}),
          error: error.message ?? String(error),
        }),
      );
      try {
        return await Promise.race([sent, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      transport.close();
    },
  };
}
