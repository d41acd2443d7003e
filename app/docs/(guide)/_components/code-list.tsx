import { Fragment } from "react";
import { useGuideElements } from "./mdx-elements";

/** The words of a definition's list, each as code, comma-separated: `waiting`, `invited`, … */
export function CodeList({ words }: { words: readonly string[] }) {
  const { Code } = useGuideElements();
  return words.map((word, index) => (
    <Fragment key={word}>
      {index > 0 ? ", " : null}
      <Code>{word}</Code>
    </Fragment>
  ));
}
