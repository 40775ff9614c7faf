import type { TxtResolver } from '../resolver.js';

/**
 * An in-process DNS zone for tests: what is published answers, a name marked failing throws as a
 * resolver does when its server fails, anything else has no TXT records.
 */
export class TestTxtResolver implements TxtResolver {
  private readonly zone = new Map<string, string[][]>();
  private readonly failing = new Set<string>();

  publish(hostname: string, value: string): void {
    this.zone.set(hostname, [...(this.zone.get(hostname) ?? []), [value]]);
  }

  fail(hostname: string): void {
    this.failing.add(hostname);
  }

  async resolveTxt(hostname: string): Promise<string[][]> {
    if (this.failing.has(hostname)) throw Object.assign(new Error(`queryTxt ESERVFAIL ${hostname}`), { code: 'ESERVFAIL' });
    return this.zone.get(hostname) ?? [];
  }
}
