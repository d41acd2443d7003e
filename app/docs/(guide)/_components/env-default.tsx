import { ENV_DEFAULTS } from "@/lib/core/env";
import { useGuideElements } from "./mdx-elements";

/** A variable's default as it is written in the environment, read from lib/core/env.ts. */
export function EnvDefault({ name }: { name: keyof typeof ENV_DEFAULTS }) {
  const { Code } = useGuideElements();
  return <Code>{ENV_DEFAULTS[name]}</Code>;
}
