import type { JOIN_LOGO_TYPES } from "@/db/schema";

// What an uploaded image is, read from its bytes (never its name or the type the browser claims):
// PNG, JPEG or WebP with the dimensions its header gives. A file that starts like one of them but
// whose header is cut short or names no size is a broken image.

export type LogoType = (typeof JOIN_LOGO_TYPES)[number];

export type SniffedImage = { type: LogoType; width: number; height: number } | { problem: "unsupported" | "broken" };

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => Array.from(text, (character) => character.charCodeAt(0));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function sized(type: LogoType, width: number, height: number): SniffedImage {
  return width > 0 && height > 0 ? { type, width, height } : { problem: "broken" };
}

/** The PNG's IHDR, which must come first. */
function png(view: DataView, bytes: Uint8Array): SniffedImage {
  if (bytes.length < 33 || !startsWith(bytes, ascii("IHDR"), 12)) return { problem: "broken" };
  return sized("image/png", view.getUint32(16), view.getUint32(20));
}

/** The JPEG's first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC), walking the segments. */
function jpeg(view: DataView, bytes: Uint8Array): SniffedImage {
  let offset = 2;
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return { problem: "broken" };
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized("image/jpeg", view.getUint16(offset + 7), view.getUint16(offset + 5));
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return { problem: "broken" };
}

/** The WebP's first chunk: VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(view: DataView, bytes: Uint8Array): SniffedImage {
  if (bytes.length < 30) return { problem: "broken" };
  if (startsWith(bytes, ascii("VP8 "), 12)) {
    if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return { problem: "broken" };
    return sized("image/webp", view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  }
  if (startsWith(bytes, ascii("VP8L"), 12)) {
    if (bytes[20] !== 0x2f) return { problem: "broken" };
    const bits = view.getUint32(21, true);
    return sized("image/webp", (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (startsWith(bytes, ascii("VP8X"), 12)) {
    const width = 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16));
    const height = 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16));
    return sized("image/webp", width, height);
  }
  return { problem: "broken" };
}

/** The image's type and size from its bytes, or why it cannot be a logo. */
export function sniffImage(bytes: Uint8Array): SniffedImage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, PNG_SIGNATURE)) return png(view, bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(view, bytes);
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return webp(view, bytes);
  return { problem: "unsupported" };
}
