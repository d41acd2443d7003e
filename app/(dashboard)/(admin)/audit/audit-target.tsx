import Link from "next/link";
import { linkClass, mutedText } from "@/components/styles";
import type { AuditTargetKind } from "@/lib/domain/audit/targets";

/** A long id or hash in a table cell: its first characters on one line, the whole value in the title (and to copy). */
export function ShortId({ value }: { value: string }) {
  return (
    <code title={value} className={`whitespace-nowrap font-mono text-xs ${mutedText}`}>
      {value.length > 12 ? `${value.slice(0, 8)}…` : value}
    </code>
  );
}

/** The thing an audit row is about, by name and linked while it exists; erased or deleted things as plain text. */
export function AuditTarget({ kind, target, name }: { kind: AuditTargetKind; target: string; name: string | undefined }) {
  if (kind === "address") {
    return (
      <span className="whitespace-nowrap">
        erased address <ShortId value={target} />
      </span>
    );
  }
  if (kind === "webhook" || kind === "delivery") {
    // An endpoint's row on /webhooks; a delivery as the first row of the log's page that starts at it.
    const logHref = kind === "webhook" ? `/webhooks#endpoint-${target}` : `/deliveries?before=${Number(target) + 1}`;
    return (
      <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
        <Link href={logHref} prefetch={false} className={linkClass}>
          {kind === "webhook" ? "webhook endpoint" : "delivery"}
        </Link>
        <ShortId value={target} />
      </span>
    );
  }
  const href = kind === "waitlist" ? `/waitlists/${target}` : `/keys#key-${target}`;
  if (name === undefined) {
    return (
      <span className="whitespace-nowrap">
        {kind === "waitlist" ? "deleted waitlist" : "deleted key"} <ShortId value={target} />
      </span>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
      <span className={mutedText}>{kind === "waitlist" ? "waitlist" : "key"}</span>
      <Link href={href} prefetch={false} className={`${linkClass} break-words`}>
        {name}
      </Link>
      <ShortId value={target} />
    </span>
  );
}
