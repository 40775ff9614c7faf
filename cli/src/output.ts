import { ApiError, ConnectionError } from './client.js';

/** 0 done; 1 failed (refused, unreachable, not signed in); 2 rejected input or usage (a bad file, a missing option, an unknown command). */
export const EXIT = { done: 0, failed: 1, rejected: 2 } as const;

export interface OutputOptions {
  json: boolean;
  color: boolean;
  verbose: boolean;
}

/** Input the person must fix (a bad file, an unknown name): each line is printed, and the exit code is 2. */
export class RejectedInput extends Error {
  constructor(
    message: string,
    readonly lines: string[] = [],
  ) {
    super(message);
  }
}

/** A failure already explained on stderr (a failed job): exit 1 without saying more. */
export class Failed extends Error {}

/** No sign-in for the server: said as such, never as a server that cannot be reached. */
export class NotSignedIn extends Failed {}

/**
 * A person at a real terminal on this stream: a TTY that knows its width, and not `TERM=dumb`.
 * Anything else (a pipe, a CI log, `script` without a size) gets plain lines: no live rendering,
 * no colours, no cursor or clear-screen codes.
 */
export function isInteractive(stream: NodeJS.WriteStream = process.stderr): boolean {
  return Boolean(stream.isTTY) && process.env.TERM !== 'dumb' && (stream.columns ?? 0) > 0;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Key/value lines for people; aligned so they read as a table. */
export function printPairs(pairs: [string, string][]): void {
  const width = Math.max(...pairs.map(([key]) => key.length));
  for (const [key, value] of pairs) process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
}

/** Rows for people: columns padded to the widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
  process.stdout.write(`${[line(header), ...rows.map(line)].join('\n')}\n`);
}

/** Hints and progress: stderr only, and only for a person at a terminal. */
export function hint(message: string): void {
  if (process.stderr.isTTY) process.stderr.write(`${message}\n`);
}

function red(text: string, color: boolean): string {
  return color ? `\u001b[31m${text}\u001b[39m` : text;
}

interface Problem {
  line?: number;
  field?: string;
  message: string;
}

/** `line 3: email: is required` → its parts, so `--json` callers need not parse text. */
function problemOf(text: string): Problem {
  const match = /^line (\d+|\?): ([^:]+): (.*)$/.exec(text.trim());
  if (!match) return { message: text.trim() };
  return { ...(match[1] === '?' ? {} : { line: Number(match[1]) }), field: match[2] ?? '', message: match[3] ?? '' };
}

/** With `--json`, every failure is also a JSON object on stdout, so a script always has something to parse. */
function printJsonFailure(code: string, message: string, problems: Problem[] = []): void {
  printJson({ error: { code, message, ...(problems.length ? { problems } : {}) } });
}

/** The one place failures become messages and exit codes: 2 for rejected input, 1 for anything else. */
export function reportFailure(error: unknown, options: OutputOptions): number {
  if (error instanceof ApiError) {
    const lines = [`${red('Error:', options.color)} ${error.body.message ?? error.body.description} (${error.status} ${error.body.title})`];
    for (const field of error.body.errors ?? []) lines.push(`  ${field.field}: ${field.message}`);
    if (options.json) printJson({ error: error.body });
    process.stderr.write(`${lines.join('\n')}\n`);
    return error.status === 400 || error.status === 413 ? EXIT.rejected : EXIT.failed;
  }
  if (error instanceof RejectedInput) {
    if (options.json) printJsonFailure('rejected', error.message, error.lines.map(problemOf));
    process.stderr.write([`${red('Error:', options.color)} ${error.message}`, ...error.lines].join('\n') + '\n');
    return EXIT.rejected;
  }
  if (error instanceof Failed) {
    if (options.json) printJsonFailure(error instanceof NotSignedIn ? 'not_signed_in' : 'failed', error.message);
    process.stderr.write(`${red('Error:', options.color)} ${error.message}\n`);
    return EXIT.failed;
  }
  if (error instanceof ConnectionError) {
    if (options.json) printJsonFailure('unreachable', error.message);
    process.stderr.write(`${red('Error:', options.color)} ${error.message}\n`);
    return EXIT.failed;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (options.json) printJsonFailure('unexpected', message);
  process.stderr.write(`${red('Unexpected error:', options.color)} ${message}\n`);
  if (options.verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return EXIT.failed;
}
