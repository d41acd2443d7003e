import { linkClass } from "@/components/styles";
import { parseDescription, type Inline } from "@/lib/domain/branding/markdown";

function InlineNodes({ nodes }: { nodes: Inline[] }) {
  return nodes.map((node, index) => {
    if ("text" in node) return node.text;
    if ("lineBreak" in node) return <br key={index} />;
    if ("strong" in node) return <strong key={index}><InlineNodes nodes={node.strong} /></strong>;
    if ("em" in node) return <em key={index}><InlineNodes nodes={node.em} /></em>;
    return (
      <a key={index} href={node.link} rel="nofollow noopener noreferrer" className={`${linkClass} underline`}>
        <InlineNodes nodes={node.children} />
      </a>
    );
  });
}

/** A waitlist's description on its join page, rendered from its Markdown subset as elements (never as HTML). */
export function BrandDescription({ source }: { source: string }) {
  const paragraphs = parseDescription(source);
  if (paragraphs.length === 0) return null;
  return (
    <div data-testid="join-description" className="mt-2 grid gap-2 text-sm">
      {paragraphs.map((paragraph, index) => (
        <p key={index}>
          <InlineNodes nodes={paragraph} />
        </p>
      ))}
    </div>
  );
}
