import pino, { type DestinationStream } from 'pino';

/** How log lines are written: one JSON object a line for machines, one readable line for people. */
export type LogFormat = 'json' | 'pretty';

/** `LOG_FORMAT` decides when set; otherwise a terminal gets readable lines and anything else JSON. */
export function chooseLogFormat(setting: string | undefined, isTerminal: boolean): LogFormat {
  const wanted = setting?.trim().toLowerCase();
  if (wanted === 'json' || wanted === 'pretty') return wanted;
  if (wanted) throw new Error(`LOG_FORMAT must be "json" or "pretty", not "${setting}".`);
  return isTerminal ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Pino's own fields, shown in their place in the line rather than as key=value. */
const OWN_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'method', 'url', 'status', 'ms', 'err']);

const clock = (time: unknown): string => {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toTimeString().slice(0, 8);
};

/** A field's value: bare when it has no spaces, a long list (the migrations applied) by its count. */
const shown = (value: unknown): string => {
  if (Array.isArray(value) && value.length > 5) return `${value.length} items`;
  return typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value);
};

/**
 * One JSON log line as a person reads it: `14:02:11 GET /api/me 200 12.3 ms` for a request,
 * `14:02:11 WARN message key=value` for anything else; an error's stack follows on its own lines.
 */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = clock(entry.time);
  const level = typeof entry.level === 'number' ? (LEVELS[entry.level] ?? String(entry.level)) : 'INFO';
  if (typeof entry.method === 'string' && typeof entry.url === 'string' && entry.status !== undefined) {
    const aborted = entry.msg === 'request aborted by the client' ? ' (client went away)' : '';
    const ms = typeof entry.ms === 'number' ? ` ${entry.ms} ms` : '';
    return `${time} ${entry.method} ${entry.url} ${shown(entry.status)}${ms}${aborted}\n`;
  }
  const extras = Object.entries(entry)
    .filter(([key]) => !OWN_FIELDS.has(key))
    .map(([key, value]) => `${key}=${shown(value)}`);
  const head = [time, level === 'INFO' ? '' : level, typeof entry.msg === 'string' ? entry.msg : '', ...extras].filter(Boolean).join(' ');
  const error = entry.err as { stack?: unknown; message?: unknown } | undefined;
  const stack = error && typeof error === 'object' ? (typeof error.stack === 'string' ? error.stack : String(error.message ?? '')) : '';
  return stack ? `${head}\n${stack.replace(/^/gm, '    ')}\n` : `${head}\n`;
}

/** A pino destination that writes each line through `prettyLine` (JSON stays on pino's own fast stdout). */
export function prettyDestination(out: NodeJS.WritableStream = process.stdout): DestinationStream {
  return { write: (line: string) => void out.write(prettyLine(line)) };
}

/**
 * JSON lines on stdout, written without blocking: a line logged while an earlier write is under way
 * joins the next write instead of costing a write of its own (under load the access log was one
 * blocking write per request, more than the rest of a cheap request). Pino writes what is left
 * before the process exits.
 */
export function jsonDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}
