/**
 * Colour for people at a terminal, never for pipes, files or scripts: on only when the stream is
 * a terminal, `NO_COLOR` is unset or empty (https://no-color.org) and `TERM` is not `dumb`.
 */
export function colourOn(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, grey: 90, bold: 1 } as const;

/** A colour name of {@link paint}. */
export type Colour = keyof typeof CODES;

/** `text` in `colour` when `on`, else as it is. */
export function paint(on: boolean, colour: Colour | undefined, text: string): string {
  return on && colour ? `\x1b[${CODES[colour]}m${text}\x1b[0m` : text;
}

/** The colour of each workflow status: running blue, completed green, the failures red or yellow. */
export const STATUS_COLOUR: Record<string, Colour> = {
  Running: 'blue', Completed: 'green', Failed: 'red', TimedOut: 'red', Terminated: 'magenta', Canceled: 'yellow', ContinuedAsNew: 'grey',
};
