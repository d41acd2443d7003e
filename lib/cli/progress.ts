/** Only files at least this large get a progress bar. */
const MIN_BYTES = 8 * 1024 * 1024;
const WIDTH = 30;

/**
 * A one-line progress bar on stderr, redrawn in place. Silent unless stderr is a terminal and
 * the work is large, so scripts and pipes never see it.
 */
export function progressBar(totalBytes: number) {
  const enabled = Boolean(process.stderr.isTTY) && totalBytes >= MIN_BYTES;
  let drawn = false;
  return {
    update(label: string, done: number) {
      if (!enabled) return;
      const fraction = Math.min(1, done / totalBytes);
      const filled = Math.round(fraction * WIDTH);
      process.stderr.write(`\r${label.padEnd(11)} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${Math.floor(fraction * 100)}%`);
      drawn = true;
    },
    clear() {
      if (drawn) process.stderr.write("\r\x1b[2K");
      drawn = false;
    },
  };
}
