import type { MDXComponents } from "mdx/types";
import Link from "next/link";
import { linkClass } from "@/components/styles";

// The look of the guide pages (app/docs/(guide)): plain Tailwind, in the dashboard's colours.
const components: MDXComponents = {
  h1: (props) => <h1 className="text-3xl font-semibold" {...props} />,
  h2: (props) => <h2 className="mt-10 scroll-mt-4 text-xl font-semibold" {...props} />,
  h3: (props) => <h3 className="mt-8 scroll-mt-4 text-lg font-semibold" {...props} />,
  h4: (props) => <h4 className="mt-6 scroll-mt-4 font-semibold" {...props} />,
  p: (props) => <p className="my-3 leading-relaxed" {...props} />,
  ul: (props) => <ul className="my-3 list-disc space-y-1 pl-6 leading-relaxed" {...props} />,
  ol: (props) => <ol className="my-3 list-decimal space-y-1 pl-6 leading-relaxed" {...props} />,
  a: ({ href = "", ...props }) =>
    href.startsWith("/") && !href.startsWith("/v1") ? (
      <Link href={href} prefetch={false} className={`${linkClass} underline`} {...props} />
    ) : (
      <a href={href} className={`${linkClass} underline`} {...props} />
    ),
  code: (props) => <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.9em] break-words dark:bg-zinc-800" {...props} />,
  pre: (props) => (
    // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
    <pre tabIndex={0} className="my-4 overflow-x-auto rounded-lg bg-zinc-100 p-4 font-mono text-sm [&_code]:bg-transparent [&_code]:p-0 dark:bg-zinc-900" {...props} />
  ),
  table: (props) => (
    // Wide tables scroll inside this box on a phone, which must then be reachable by keyboard too.
    <div tabIndex={0} className="my-4 overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm" {...props} />
    </div>
  ),
  th: (props) => <th className="border-b border-zinc-300 px-2 py-1.5 align-top font-semibold dark:border-zinc-700" {...props} />,
  td: (props) => <td className="border-b border-zinc-200 px-2 py-1.5 align-top dark:border-zinc-800" {...props} />,
  blockquote: (props) => <blockquote className="my-4 border-l-4 border-zinc-300 pl-4 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300" {...props} />,
};

export function useMDXComponents(): MDXComponents {
  return components;
}
