import type { ComponentType, JSX } from "react";
import { useMDXComponents } from "@/mdx-components";

type Element<Tag extends keyof JSX.IntrinsicElements> = ComponentType<JSX.IntrinsicElements[Tag]>;

/** The guide's own look (mdx-components.tsx) for the elements a derived table or value renders. */
export function useGuideElements() {
  const components = useMDXComponents();
  return {
    Table: components.table as Element<"table">,
    Th: components.th as Element<"th">,
    Td: components.td as Element<"td">,
    Code: components.code as Element<"code">,
  };
}
