"use client";

import { useCallback, useState } from "react";
import type { ImportEvent, ImportOutcome, ImportProgressPhase } from "@/lib/import/events";

/** Where an upload stands: sending the file, the server's progress, then the outcome or a refusal. */
export type UploadState =
  | { stage: "idle" }
  | { stage: "uploading"; sent: number; total: number }
  | { stage: "server"; phase: "received" | ImportProgressPhase; done: number; total: number; rows: number }
  | { stage: "over"; outcome: ImportOutcome }
  | { stage: "refused"; message: string };

/**
 * Sends a file as the body of POST /waitlists/{id}/import/upload with XMLHttpRequest (fetch reports
 * no upload progress) and reads the NDJSON events of the response as they arrive.
 */
export function useImportUpload(waitlistId: string) {
  const [state, setState] = useState<UploadState>({ stage: "idle" });

  const start = useCallback(
    (file: File, delimiter: string | undefined) => {
      const query = new URLSearchParams({ name: file.name });
      if (delimiter) query.set("delimiter", delimiter);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/waitlists/${encodeURIComponent(waitlistId)}/import/upload?${query}`);
      xhr.setRequestHeader("content-type", "application/octet-stream");
      let read = 0;
      const readEvents = () => {
        if (xhr.status !== 200) return;
        const complete = xhr.responseText.lastIndexOf("\n") + 1;
        const lines = xhr.responseText.slice(read, complete).split("\n").filter(Boolean);
        read = complete;
        for (const line of lines) setState(stateAfter(JSON.parse(line) as ImportEvent));
      };
      xhr.upload.onprogress = (event) => setState({ stage: "uploading", sent: event.loaded, total: event.total || file.size });
      xhr.onprogress = readEvents;
      xhr.onload = () => {
        if (xhr.status !== 200) return setState({ stage: "refused", message: xhr.responseText.trim() || `The server answered ${xhr.status}.` });
        readEvents();
        setState((current) => (current.stage === "over" ? current : { stage: "refused", message: "The server stopped before the import ended: reload the list to see whether it was imported." }));
      };
      xhr.onerror = () => setState({ stage: "refused", message: "The connection was lost. If the file was fully sent, the import may still finish: reload the list to see." });
      setState({ stage: "uploading", sent: 0, total: file.size });
      xhr.send(file);
    },
    [waitlistId],
  );

  return { state, start, reset: useCallback(() => setState({ stage: "idle" }), []) };
}

function stateAfter(event: ImportEvent): UploadState {
  switch (event.type) {
    case "received":
      return { stage: "server", phase: "received", done: 0, total: event.bytes, rows: 0 };
    case "progress":
      return { stage: "server", phase: event.phase, done: event.bytesRead, total: event.totalBytes, rows: event.rows };
    default:
      return { stage: "over", outcome: event };
  }
}
