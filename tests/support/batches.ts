/** Every item of an asynchronous stream of batches (the domain's *Batches generators), in order. */
export async function allOf<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const items: T[] = [];
  for await (const batch of batches) items.push(...batch);
  return items;
}

/** The text of a stream of chunks (the export's *Chunks generators), joined. */
export async function textOf(chunks: AsyncIterable<string> | Iterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

/** `batches` as an asynchronous stream, as the domain's writers take them. */
export async function* streamOf<T>(...batches: T[]): AsyncGenerator<T> {
  yield* batches;
}
