// The join page's description: plain text with a small Markdown subset, parsed here into a tree that
// the page renders as React elements (never as HTML, so a `<script>` stays text): paragraphs (a
// blank line between), line breaks, **bold**, *italic* (or _italic_), [links](https://…) to http(s)
// addresses only (anything else stays text), and `\` to write a marker as itself.

export type Inline = { text: string } | { strong: Inline[] } | { em: Inline[] } | { link: string; children: Inline[] } | { lineBreak: true };

export type Paragraph = Inline[];

const LINK = /^\[([^[\]\n]+)\]\(([^)\s]+)\)/;

/** An http(s) address as written, or undefined for any other scheme or a malformed one. */
export function safeLinkTarget(target: string): string | undefined {
  if (!URL.canParse(target)) return undefined;
  const url = new URL(target);
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
}

function pushText(nodes: Inline[], text: string) {
  const last = nodes.at(-1);
  if (last && "text" in last) nodes[nodes.length - 1] = { text: last.text + text };
  else nodes.push({ text });
}

function parseInline(source: string, inLink = false): Inline[] {
  const nodes: Inline[] = [];
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const character = source[index]!;
    if (character === "\\" && index + 1 < source.length && "\\*_[]()".includes(source[index + 1]!)) {
      pushText(nodes, source[index + 1]!);
      index += 2;
      continue;
    }
    if (character === "\n") {
      nodes.push({ lineBreak: true });
      index++;
      continue;
    }
    if (rest.startsWith("**")) {
      const end = source.indexOf("**", index + 2);
      if (end > index + 2) {
        nodes.push({ strong: parseInline(source.slice(index + 2, end), inLink) });
        index = end + 2;
        continue;
      }
    } else if (character === "*" || character === "_") {
      const end = source.indexOf(character, index + 1);
      if (end > index + 1) {
        nodes.push({ em: parseInline(source.slice(index + 1, end), inLink) });
        index = end + 1;
        continue;
      }
    } else if (character === "[" && !inLink) {
      const match = LINK.exec(rest);
      const target = match ? safeLinkTarget(match[2]!) : undefined;
      if (match && target) {
        nodes.push({ link: target, children: parseInline(match[1]!, true) });
        index += match[0].length;
        continue;
      }
    }
    pushText(nodes, character);
    index++;
  }
  return nodes;
}

/** The description's paragraphs; none for an empty description. */
export function parseDescription(source: string): Paragraph[] {
  return source
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== "")
    .map((block) => parseInline(block));
}

/** The description as plain text (the Open Graph card, the page's meta description): the markers and link targets dropped. */
export function descriptionText(source: string): string {
  const flatten = (nodes: Inline[]): string =>
    nodes.map((node) => ("text" in node ? node.text : "lineBreak" in node ? " " : flatten("strong" in node ? node.strong : "em" in node ? node.em : node.children))).join("");
  return parseDescription(source).map(flatten).join(" ").replace(/\s+/g, " ").trim();
}
