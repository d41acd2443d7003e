import type { Env } from "@/lib/core/env";

/** What the sender runs with: every timing comes from the environment (see the configuration page). */
export interface SenderConfig {
  schedule: readonly number[];
  timeoutMs: number;
  disableAfterMs: number;
  /** The sender's lease; a claimed delivery's lasts its timeout longer. */
  leaseMs: number;
  pollMs: number;
  concurrency: number;
  retentionMs: number;
  allowPrivate: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
}

export function senderConfig(env: Env): SenderConfig {
  return {
    schedule: env.DELIVERY_RETRY_SCHEDULE,
    timeoutMs: env.DELIVERY_TIMEOUT,
    disableAfterMs: env.DELIVERY_DISABLE_AFTER,
    leaseMs: env.DELIVERY_LEASE,
    pollMs: env.DELIVERY_POLL,
    concurrency: env.DELIVERY_CONCURRENCY,
    retentionMs: env.DELIVERY_RETENTION,
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
  };
}
