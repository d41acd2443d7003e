import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server in the test process (the smtp-server package) that keeps every message it is sent.

export interface SmtpInbox {
  url: string;
  messages: { to: string; data: string }[];
  close(): Promise<void>;
}

/** A message's text as sent (quoted-printable undone). */
function decoded(data: string): string {
  return data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: SmtpInbox["messages"] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (data += chunk));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(","), data: decoded(data) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** The parts of a multipart message as sent (its Content-Type, and its body with quoted-printable or base64 undone); none for a single-part one. */
export function mimeParts(data: string): { contentType: string; body: string }[] {
  const boundary = /^Content-Type: multipart\/[a-z]+;\s*boundary="?([^"\r\n;]+)"?/im.exec(data)?.[1];
  if (!boundary) return [];
  return data
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = "", ...rest] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
      const body = rest.join("\n\n").replace(/\r?\n$/, "");
      const contentType = /^Content-Type: ([^;\r\n]+)/im.exec(head)?.[1] ?? "";
      return { contentType, body: /^Content-Transfer-Encoding: base64/im.test(head) ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") : body };
    });
}
