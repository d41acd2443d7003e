"use client";

import { useState } from "react";
import { formatBytes } from "@/lib/core/bytes";
import { buttonClass, inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { ImportPreview } from "./import-preview";
import { ImportOutcomeNotice, ImportProgress } from "./import-status";
import { useImportUpload } from "./use-import-upload";

const DELIMITERS = [
  { value: "", label: "Comma (,)" },
  { value: ";", label: "Semicolon (;)" },
  { value: "tab", label: "Tab" },
  { value: "|", label: "Pipe (|)" },
];

/** Choose a file (and, for CSV, its delimiter), then watch it upload and import. */
export function ImportForm({ waitlistId, maxBytes }: { waitlistId: string; maxBytes: number }) {
  const { state, start, reset } = useImportUpload(waitlistId);
  const [tooLarge, setTooLarge] = useState<string>();
  const [chosen, setChosen] = useState<File>();
  const [delimiter, setDelimiter] = useState("");
  const running = state.stage === "uploading" || state.stage === "server";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") return;
    if (file.size > maxBytes) {
      setTooLarge(`${file.name} has ${formatBytes(file.size)}: an import may have at most ${formatBytes(maxBytes)}. Nothing was imported.`);
      return;
    }
    setTooLarge(undefined);
    const delimiter = String(form.get("delimiter") ?? "");
    start(file, /\.csv$/i.test(file.name) && delimiter ? delimiter : undefined);
  }

  return (
    <>
      <form
        onSubmit={onSubmit}
        onReset={() => {
          reset();
          setChosen(undefined);
          setDelimiter("");
        }}
        className="mt-4 grid gap-4"
      >
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm font-medium">
            File (.csv, .json, .ndjson)
            <input
              name="file"
              type="file"
              required
              accept=".csv,.json,.ndjson,.jsonl"
              disabled={running}
              onChange={(event) => setChosen(event.currentTarget.files?.[0])}
              className={`${inputClass} w-80 max-w-full`}
            />
          </label>
          <label className="grid gap-1 text-sm font-medium">
            CSV delimiter
            <select name="delimiter" disabled={running} value={delimiter} onChange={(event) => setDelimiter(event.currentTarget.value)} className={`${inputClass} w-40`}>
              {DELIMITERS.map(({ value, label }) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {chosen && !running && state.stage !== "over" ? <ImportPreview file={chosen} delimiter={delimiter} /> : null}
        <div className="flex items-center gap-3">
          <button type="submit" disabled={running} className={primaryButtonClass}>
            {running ? "Importing…" : "Import"}
          </button>
          {state.stage === "over" || state.stage === "refused" ? (
            <button type="reset" className={buttonClass}>
              Import another file
            </button>
          ) : null}
        </div>
        <p className={`text-xs ${mutedText}`}>At most {formatBytes(maxBytes)}. Keep this page open until the import ends.</p>
      </form>
      {running ? <ImportProgress state={state} /> : null}
      {state.stage === "over" ? <ImportOutcomeNotice outcome={state.outcome} waitlistId={waitlistId} /> : null}
      {state.stage === "refused" || tooLarge ? (
        <p role="alert" data-testid="import-refused" className="mt-6 max-w-2xl rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {tooLarge ?? (state.stage === "refused" ? state.message : "")}
        </p>
      ) : null}
    </>
  );
}
