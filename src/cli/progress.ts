/** A progress bar on stderr; draws nothing unless stderr is a terminal. */
interface ProgressBar {
  /** Redraws the bar at `done` of `total`. */
  update(done: number, total: number): void;
  /** Ends the bar's line (when one was drawn). */
  finish(): void;
}

const WIDTH = 30;

/**
 * A bar such as `terminate [##########....................] 4/12` redrawn in place on stderr,
 * only when stderr is a terminal, so scripts and piped output see none of it. Redraws are
 * skipped while the drawn text would not change.
 */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  const tty = stream.isTTY === true;
  let last = '';
  return {
    update(done, total) {
      if (!tty) return;
      const shown = Math.max(total, done);
      const filled = shown > 0 ? Math.round((done / shown) * WIDTH) : WIDTH;
      const text = `\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${shown}`;
      if (text === last) return;
      last = text;
      stream.write(text);
    },
    finish() {
      if (tty && last) stream.write('\n');
      last = '';
    },
  };
}
