"use client";

import { useEffect, useState } from "react";
import { cardClass, mutedText } from "@/components/styles";
import { previewFile, PREVIEW_BYTES, type FilePreview } from "./preview-file";

/** Before importing: which column of the chosen file becomes what, and its first rows (read in the browser, nothing sent). */
export function ImportPreview({ file, delimiter }: { file: File; delimiter: string }) {
  const [preview, setPreview] = useState<{ file: File; delimiter: string; result: FilePreview }>();
  useEffect(() => {
    let current = true;
    void file
      .slice(0, PREVIEW_BYTES)
      .text()
      .then((text) => {
        if (current) setPreview({ file, delimiter, result: previewFile(file.name, text, file.size <= PREVIEW_BYTES, delimiter === "tab" ? "\t" : delimiter || ",") });
      });
    return () => {
      current = false;
    };
  }, [file, delimiter]);
  if (!preview || preview.file !== file || preview.delimiter !== delimiter) return null;
  const { columns, rows, problem } = preview.result;
  return (
    <section aria-labelledby="preview-heading" className="grid max-w-4xl gap-3" data-testid="import-preview">
      <h2 id="preview-heading" className="text-lg font-semibold">
        Before importing: {file.name}
      </h2>
      {problem ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {problem}
        </p>
      ) : null}
      {columns.length > 0 ? (
        <div className={`${cardClass} overflow-x-auto`} role="region" aria-label="Columns and first rows" tabIndex={0}>
          <table className="w-full text-left text-sm" data-testid="import-mapping">
            <caption className="sr-only">Each column of the file, what it becomes, and the first {rows.length} rows</caption>
            <thead className={`border-b border-zinc-200 dark:border-zinc-800 ${mutedText}`}>
              <tr>
                <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium">
                  Column
                </th>
                {columns.map((column, index) => (
                  <th key={index} scope="col" className="whitespace-nowrap px-3 py-2 font-mono text-xs font-medium text-zinc-900 dark:text-zinc-100">
                    {column.name}
                  </th>
                ))}
              </tr>
              <tr>
                <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium">
                  Becomes
                </th>
                {columns.map((column, index) => (
                  <td key={index} className="whitespace-nowrap px-3 py-2 text-xs">
                    {column.becomes}
                  </td>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  <th scope="row" className={`px-3 py-2 text-xs font-normal ${mutedText}`}>
                    Row {rowIndex + 1}
                  </th>
                  {columns.map((_, index) => (
                    <td key={index} className="max-w-56 truncate px-3 py-2 font-mono text-xs" title={row[index]}>
                      {row[index] ?? ""}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p className={`text-xs ${mutedText}`}>Read from the start of the file in this browser; the import checks every row.</p>
    </section>
  );
}
