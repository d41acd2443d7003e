import Link from "next/link";
import type { MouseEvent } from "react";
import { focusRing } from "./styles";

/** A column header that links to the same view sorted by this column (the URL holds the sort). */
export function SortHeaderLink({
  label,
  href,
  sorted,
  next,
  onNavigate,
}: {
  label: string;
  href: string;
  sorted: false | "asc" | "desc";
  /** The direction the link sorts by. */
  next: "asc" | "desc";
  onNavigate?: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const arrow = sorted === "asc" ? "↑" : sorted === "desc" ? "↓" : "↕";
  return (
    <Link href={href} scroll={false} onClick={onNavigate} className={`${focusRing} inline-flex items-center gap-1 rounded-sm hover:text-zinc-950 dark:hover:text-white`}>
      {label}
      <span aria-hidden="true" className={sorted ? "" : "text-zinc-400 dark:text-zinc-500"}>
        {arrow}
      </span>
      <span className="sr-only">, sort {next === "asc" ? "ascending" : "descending"}</span>
    </Link>
  );
}

export function ariaSort(sorted: false | "asc" | "desc"): "ascending" | "descending" | "none" {
  return sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none";
}
