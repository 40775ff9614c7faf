import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';

/** The reference data shipped inside the project (see api/reference-data/SOURCES.md). */
export const REFERENCE_DATA_DIR = path.resolve(import.meta.dirname, '..', '..', 'reference-data');

/** Reads a shipped CSV into records keyed by its header; every cell trimmed, no-break spaces included. */
export function readReferenceCsv(file: string): Record<string, string>[] {
  const text = readFileSync(path.join(REFERENCE_DATA_DIR, file), 'utf8');
  return (parse(text, CSV_OPTIONS) as Record<string, string>[]).map(trimmed);
}

// Cells are trimmed after parsing, not by a `cast` callback: a callback makes csv-parse build a
// context for every field, which took most of a start's seconds on the ECB history.
const CSV_OPTIONS = { columns: (header: string[]) => header.map((name) => name.trim()), skip_empty_lines: true } as const;

/** String.prototype.trim removes U+00A0 too, which csv-parse's own `trim` does not. */
function trimmed(record: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(record)) record[key] = (record[key] ?? '').trim();
  return record;
}

/** The same records, read chunk by chunk: a large file (the ECB history) never holds up the event loop for long. */
export async function* streamReferenceCsv(file: string): AsyncGenerator<Record<string, string>> {
  const parser = createReadStream(path.join(REFERENCE_DATA_DIR, file)).pipe(parseStream(CSV_OPTIONS));
  for await (const record of parser) yield trimmed(record as Record<string, string>);
}
