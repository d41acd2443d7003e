import { CopyButton } from "@/components/copy-button";
import { CustomInputEntries } from "@/components/custom-input-entries";
import { hasCutText, previewCustomInputs, SIGNUP_PAGE_BOUNDS } from "@/components/custom-inputs";
import { formatCount } from "@/components/format";
import { linkClass, mutedText } from "@/components/styles";
import { formatBytes } from "@/lib/core/bytes";

/**
 * Up to this many characters the stored JSON goes into the page for the copy button (sent twice,
 * every character escaped at worst: up to 50 KB); above, the JSON link serves it.
 */
const COPY_MAX_CHARS = 8_000;

/**
 * A signup's custom inputs as a key/value list, bounded (SIGNUP_PAGE_BOUNDS): the first entries,
 * long keys and values cut. When anything is left out or cut, or the JSON is too long to copy, a
 * link shows them all as the stored JSON (./custom-inputs); short ones get a button that copies it.
 */
export function CustomInputList({ inputs, jsonHref }: { inputs: readonly unknown[]; jsonHref: string }) {
  const preview = previewCustomInputs(inputs, SIGNUP_PAGE_BOUNDS);
  const json = JSON.stringify(inputs);
  const copyable = json.length <= COPY_MAX_CHARS;
  const partial = preview.entries.length < preview.total;
  const cut = hasCutText(preview);
  return (
    <section aria-labelledby="custom-inputs-heading" className="mt-8">
      <div className="flex items-center justify-between gap-4">
        <h2 id="custom-inputs-heading" className="text-lg font-semibold">
          Custom inputs
        </h2>
        {copyable ? <CopyButton value={json} label="Copy custom inputs as JSON" /> : null}
      </div>
      {copyable && !partial && !cut ? null : (
        <p className={`mt-1 text-sm ${mutedText}`} data-testid="custom-inputs-shown">
          {partial ? `The first ${formatCount(preview.entries.length)} of ${formatCount(preview.total)} are shown` : `All ${formatCount(preview.total)} are shown`}
          {cut ? "; long texts are cut." : "."}{" "}
          <a href={jsonHref} className={`${linkClass} underline`}>
            Show all {formatCount(preview.total)} custom input{preview.total === 1 ? "" : "s"} as JSON
          </a>{" "}
          ({formatBytes(Buffer.byteLength(json))})
        </p>
      )}
      <CustomInputEntries entries={preview.entries} className="mt-3 bg-white dark:bg-zinc-900" />
    </section>
  );
}
