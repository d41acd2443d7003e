import type { Readable } from "node:stream";
import { BATCH_SIZE, jsonRecord, latestOf, MAX_RECORD_BYTES, tooLargeRecord, type ImportRecord, type RowOptions } from "./row";

const enum Char {
  Newline = 10,
  Quote = 34,
  Comma = 44,
  OpenSquare = 91,
  Backslash = 92,
  CloseSquare = 93,
  OpenCurly = 123,
  CloseCurly = 125,
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xfeff;
}

class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

class ElementTooLargeError extends JsonSyntaxError {}

// A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair: 4 bytes for 2 units).
const MAX_UTF8_BYTES_PER_UNIT = 3;

function isTooLarge(text: string): boolean {
  return text.length > MAX_RECORD_BYTES || (text.length * MAX_UTF8_BYTES_PER_UNIT > MAX_RECORD_BYTES && Buffer.byteLength(text) > MAX_RECORD_BYTES);
}

/**
 * Splits the text of one top-level JSON array into the texts of its elements, chunk by chunk,
 * so a file of any size is parsed one element at a time. Elements themselves go to JSON.parse.
 * An element over MAX_RECORD_BYTES stops the splitting once its first chunks exceed it, so at most
 * about the limit plus one chunk is ever buffered.
 */
class JsonArraySplitter {
  private line = 1;
  private state: "before" | "between" | "element" | "after" = "before";
  /** Whether an element may come next (after "[" or ","), as opposed to "," or "]". */
  private expectElement = true;
  private seenElement = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private parts: string[] = [];
  /** The length of `parts`, in UTF-16 code units. */
  private partsLength = 0;
  private elementLine = 0;

  push(chunk: string, out: { line: number; text: string }[]): void {
    let start = -1;
    for (let index = 0; index < chunk.length; index++) {
      const code = chunk.charCodeAt(index);
      if (code === Char.Newline) this.line++;
      if (this.state === "element") {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (code === Char.Backslash) this.escaped = true;
          else if (code === Char.Quote) this.inString = false;
          continue;
        }
        if (code === Char.Quote) this.inString = true;
        else if (code === Char.OpenCurly || code === Char.OpenSquare) this.depth++;
        else if (this.depth > 0 && (code === Char.CloseCurly || code === Char.CloseSquare)) this.depth--;
        else if (this.depth === 0 && (code === Char.Comma || code === Char.CloseSquare)) {
          this.parts.push(chunk.slice(start === -1 ? 0 : start, index));
          const text = this.parts.join("");
          if (isTooLarge(text)) throw new ElementTooLargeError(this.elementLine, "element too large");
          out.push({ line: this.elementLine, text });
          this.parts = [];
          this.partsLength = 0;
          start = -1;
          this.state = code === Char.Comma ? "between" : "after";
          this.expectElement = code === Char.Comma;
        }
        continue;
      }
      if (isWhitespace(code)) continue;
      if (this.state === "before") {
        if (code !== Char.OpenSquare) throw new JsonSyntaxError(this.line, "a JSON import file must be one array of signup objects");
        this.state = "between";
      } else if (this.state === "after") {
        throw new JsonSyntaxError(this.line, "unexpected text after the closing ] of the array");
      } else if (code === Char.CloseSquare && (!this.expectElement || !this.seenElement)) {
        this.state = "after";
      } else if (code === Char.Comma || code === Char.CloseSquare) {
        throw new JsonSyntaxError(this.line, `unexpected "${String.fromCharCode(code)}" in the array`);
      } else if (!this.expectElement) {
        throw new JsonSyntaxError(this.line, 'expected "," or "]" between array elements');
      } else {
        this.state = "element";
        this.seenElement = true;
        this.elementLine = this.line;
        start = index;
        index--; // re-read this (non-whitespace) character as the element's first
      }
    }
    if (this.state === "element") {
      const part = chunk.slice(start === -1 ? 0 : start);
      this.parts.push(part);
      this.partsLength += part.length;
      if (this.partsLength > MAX_RECORD_BYTES) throw new ElementTooLargeError(this.elementLine, "element too large");
    }
  }

  end(): void {
    if (this.state === "before") throw new JsonSyntaxError(this.line, "the file is empty: expected a JSON array of signup objects");
    if (this.state !== "after") throw new JsonSyntaxError(this.line, "the file ends before the array is closed with ]");
  }
}

/** Streams the elements of a JSON array of signup objects (each with the line it starts on), a chunk at a time. */
export async function* readJsonArrayRecords(input: Readable, options: RowOptions = {}): AsyncGenerator<ImportRecord[]> {
  const latest = latestOf(options);
  input.setEncoding("utf8");
  const splitter = new JsonArraySplitter();
  const elements: { line: number; text: string }[] = [];
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      splitter.push(chunk, elements);
      // Batches of BATCH_SIZE, as the other readers (a 1 MB chunk holds some 10,000 short elements).
      for (let at = 0; at < elements.length; at += BATCH_SIZE) yield elements.slice(at, at + BATCH_SIZE).map(({ line, text }) => jsonRecord(line, text, latest));
      elements.length = 0;
    }
    splitter.end();
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const last = error instanceof ElementTooLargeError ? tooLargeRecord(error.line) : { line: error.line, error: `invalid JSON: ${error.message}` };
    yield [...elements.map(({ line, text }) => jsonRecord(line, text, latest)), last];
  }
}
