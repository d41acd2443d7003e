import { useGuideElements } from "./mdx-elements";

/** Text built from a definition, shown as the guide shows code. */
export function CodeText({ children }: { children: string | number }) {
  const { Code } = useGuideElements();
  return <Code>{children}</Code>;
}
