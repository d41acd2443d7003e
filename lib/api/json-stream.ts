/**
 * A JSON array streamed from batches of JSON texts: "[", items joined by ",", "]". One batch is
 * read per pull, so a slow client slows the reads (back-pressure) and memory stays at about one
 * batch; cancelling (the client went away) closes the generator and stops reading.
 */
export function jsonArrayStream(batches: Generator<string[], void, undefined>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let opened = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        try {
          const batch = batches.next();
          if (batch.done) {
            controller.enqueue(encoder.encode(opened ? "]" : "[]"));
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode((opened ? "," : "[") + batch.value.join(",")));
          opened = true;
        } catch (error) {
          // The status line is already sent: all we can do is cut the body short (it is then not valid JSON) and log.
          onError(error);
          controller.error(error);
        }
      },
      cancel() {
        batches.return();
      },
    },
    // 0: nothing is read before the client asks (a HEAD reads nothing).
    { highWaterMark: 0 },
  );
}
