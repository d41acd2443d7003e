/**
 * A JSON array streamed from batches of JSON texts (or their UTF-8 bytes already joined by ","):
 * "[", items joined by ",", "]". The first batch
 * is read at once, so a failing query is still an error response rather than a cut-off 200. After
 * that, one batch is read per pull: a slow client slows the reads (back-pressure) and memory stays
 * at about one batch; cancelling (the client went away) closes the generator and stops reading.
 */
export async function jsonArrayStream(batches: AsyncGenerator<readonly string[] | Uint8Array, void, undefined>, onError: (error: unknown) => void): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<readonly string[] | Uint8Array, void> | null = await batches.next();
  let opened = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const batch = pending ?? (await batches.next());
          pending = null;
          if (batch.done) {
            controller.enqueue(encoder.encode(opened ? "]" : "[]"));
            controller.close();
            return;
          }
          if (batch.value instanceof Uint8Array) {
            controller.enqueue(encoder.encode(opened ? "," : "["));
            controller.enqueue(batch.value);
          } else controller.enqueue(encoder.encode((opened ? "," : "[") + batch.value.join(",")));
          opened = true;
        } catch (error) {
          // The status line is already sent: all we can do is cut the body short (it is then not valid JSON) and log.
          onError(error);
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return();
      },
    },
    // 0: nothing more is read until the client asks for it.
    { highWaterMark: 0 },
  );
}
