import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';

/** The reference data shipped inside the project (see api/reference-data/SOURCES.md). */
export const REFERENCE_DATA_DIR = path.resolve(import.meta.dirname, '..', '..', 'reference-data');

/** Reads a shipped CSV into records keyed by its header; every cell trimmed, no-break spaces included. */
export function readReferenceCsv(file: string): Record<string, string>[] {
  const text = readFileSync(path.join(REFERENCE_DATA_DIR, file), 'utf8');
  return parse(text, CSV_OPTIONS) as Record<string, string>[];
}

const CSV_OPTIONS = {
  columns: true,
  skip_empty_lines: true,
  // String.prototype.trim removes U+00A0 too, which csv-parse's own `trim` does not.
  cast: (value: string) => value.trim(),
} as const;

/** The same records, read chunk by chunk: a large file (the ECB history) never holds up the event loop for long. */
export async function* streamReferenceCsv(file: string): AsyncGenerator<Record<string, string>> {
  const parser = createReadStream(path.join(REFERENCE_DATA_DIR, file)).pipe(parseStream(CSV_OPTIONS));
  for await (const record of parser) yield record as Record<string, string>;
}
