import { CopyButton } from "@/components/copy-button";
import { CustomInputEntries } from "@/components/custom-input-entries";
import { isWholePreview, previewCustomInputs, SIGNUP_PAGE_BOUNDS } from "@/components/custom-inputs";
import { formatCount } from "@/components/format";
import { linkClass, mutedText } from "@/components/styles";
import { formatBytes } from "@/lib/core/bytes";

/** Above this the stored JSON is not put in the page for the copy button (it would be sent twice): the JSON link serves it. */
const COPY_MAX_CHARS = 16_000;

/**
 * A signup's custom inputs as a key/value list: the first SIGNUP_PAGE_BOUNDS.entries entries, long
 * keys and values cut. When anything is left out, a link shows them all as the stored JSON
 * (./custom-inputs); small inputs also get a button that copies that JSON.
 */
export function CustomInputList({ inputs, jsonHref }: { inputs: readonly unknown[]; jsonHref: string }) {
  const preview = previewCustomInputs(inputs, SIGNUP_PAGE_BOUNDS);
  const json = JSON.stringify(inputs);
  const whole = isWholePreview(preview);
  return (
    <section aria-labelledby="custom-inputs-heading" className="mt-8">
      <div className="flex items-center justify-between gap-4">
        <h2 id="custom-inputs-heading" className="text-lg font-semibold">
          Custom inputs
        </h2>
        {json.length <= COPY_MAX_CHARS ? <CopyButton value={json} label="Copy custom inputs as JSON" /> : null}
      </div>
      {whole ? null : (
        <p className={`mt-1 text-sm ${mutedText}`} data-testid="custom-inputs-shown">
          {preview.entries.length === preview.total
            ? `All ${formatCount(preview.total)} shown; long texts are cut.`
            : `The first ${formatCount(preview.entries.length)} of ${formatCount(preview.total)} are shown; long texts are cut.`}{" "}
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

