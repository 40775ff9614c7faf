import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import archiver from 'archiver';

/**
 * A ZIP archive written as it goes (archiver), entries stored as they are: PDFs are deflated inside
 * already. A failed write is kept and fails the next call, never thrown at the process.
 */
export class ZipWriter {
  private readonly archive = archiver('zip', { store: true });
  private failure: Error | undefined;

  constructor(private readonly out: Writable) {
    this.archive.on('error', (error: Error) => (this.failure ??= error));
    this.archive.on('warning', (error: Error) => (this.failure ??= error));
    out.on('error', (error: Error) => (this.failure ??= error));
    this.archive.pipe(out);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  async add(name: string, data: Buffer, modified: Date): Promise<void> {
    this.check();
    this.archive.append(data, { name, date: modified });
    // Let the archive drain what it holds before the next document is drawn.
    if (this.out.writableNeedDrain) await new Promise((resolve) => this.out.once('drain', resolve));
    this.check();
  }

  /** Closes the destination without finishing (a failed or cancelled job); nothing after `finish`. */
  abort(): void {
    if (!this.out.writableFinished) {
      this.failure ??= new Error('The archive was abandoned.');
      this.archive.abort();
      this.out.destroy();
    }
  }

  async finish(): Promise<void> {
    this.check();
    await this.archive.finalize();
    await finished(this.out);
    this.check();
  }
}
