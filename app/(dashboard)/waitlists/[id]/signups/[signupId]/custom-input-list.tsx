import { CopyButton } from "@/components/copy-button";
import { CustomInputEntries } from "@/components/custom-input-entries";

/** A signup's custom inputs as a key/value list, with the stored JSON to copy. */
export function CustomInputList({ inputs }: { inputs: readonly unknown[] }) {
  return (
    <section aria-labelledby="custom-inputs-heading" className="mt-8">
      <div className="flex items-center justify-between gap-4">
        <h2 id="custom-inputs-heading" className="text-lg font-semibold">
          Custom inputs
        </h2>
        <CopyButton value={JSON.stringify(inputs)} label="Copy custom inputs as JSON" />
      </div>
      <CustomInputEntries inputs={inputs} className="mt-3 bg-white dark:bg-zinc-900" />
    </section>
  );
}
