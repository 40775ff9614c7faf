import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeSpecifiers, sourceFiles, stronglyConnected } from './importGraph.js';

/*
 * The floor plan of `api/src`, checked over its runtime imports (type-only imports are erased and
 * tie nothing). Two rules, each with the arrows that break it today, so the list can only shrink:
 * - no import loop between folders: an arrow that closes a loop is refused unless listed;
 * - nothing imports upward: the floor (HTTP, database, auth, money, reference data, the process
 *   entry) knows neither the platform nor an area, and the platform knows no area.
 * An arrow that goes away must leave its list too, so the lists stay the true debt.
 */

const SRC = path.resolve(import.meta.dirname, '..', 'src');

const FLOOR = new Set(['kernel', 'http', 'db', 'access', 'money', 'currencies', 'forex', 'reference', 'threads', 'system', 'config',
  'contract-defaults', 'contract-types', 'main', 'server', 'app', 'startupWorker', 'modules', 'deps', 'cluster']);
const PLATFORM = new Set(['platform', 'workflow', 'documents', 'jobs', 'downloads', 'realtime', 'notifications', 'people', 'events', 'helpdesk', 'fileImports']);

/** Arrows inside an import loop today (folder → folder). */
const KNOWN_LOOP_ARROWS: string[] = [];

/** Arrows from the floor up to the platform or an area, or from the platform to an area, today. */
const KNOWN_UPWARD_ARROWS = [
  'forex -> platform', 'main -> demo',
  'server -> downloads', 'server -> identity', 'server -> jobs', 'server -> market',
  'server -> notifications', 'server -> platform', 'server -> realtime', 'startupWorker -> demo',
];

/** A file's folder under `api/src`; a file at the top is a node of its own (`config`, `server`). */
function folderOf(file: string): string {
  const [first = '', ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length === 0 ? first.replace(/\.ts$/, '') : first;
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC, { extensions: ['.ts'], skip: ['test'] })) {
    const from = folderOf(file);
    for (const specifier of runtimeSpecifiers(file)) {
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(SRC + path.sep)) continue;
      const to = folderOf(target.replace(/\.js$/, '.ts'));
      if (to === from) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Each folder's strongly connected component. */
function components(graph: Map<string, Set<string>>): Map<string, number> {
  return new Map(stronglyConnected(graph).flatMap((members, id) => members.map((member) => [member, id] as const)));
}

const arrows = (graph: Map<string, Set<string>>, keep: (from: string, to: string) => boolean): string[] =>
  [...graph].flatMap(([from, targets]) => [...targets].filter((to) => keep(from, to)).map((to) => `${from} -> ${to}`)).sort();

const layer = (folder: string): number => (FLOOR.has(folder) ? 0 : PLATFORM.has(folder) ? 1 : 2);

describe('the import graph of api/src', () => {
  const graph = folderGraph();

  it('sees the folders and their arrows (the check reads real imports)', () => {
    expect(graph.get('market')?.has('money')).toBe(true);
    expect(graph.size).toBeGreaterThan(30);
  });

  it('adds no import loop between folders, and the known ones only shrink', () => {
    const component = components(graph);
    const inLoops = arrows(graph, (from, to) => component.get(from) === component.get(to));
    expect({ new: inLoops.filter((arrow) => !KNOWN_LOOP_ARROWS.includes(arrow)), gone: KNOWN_LOOP_ARROWS.filter((arrow) => !inLoops.includes(arrow)) }).toEqual({ new: [], gone: [] });
  });

  it('imports nothing upward: the floor knows no platform or area, the platform no area', () => {
    const upward = arrows(graph, (from, to) => layer(to) > layer(from));
    expect({ new: upward.filter((arrow) => !KNOWN_UPWARD_ARROWS.includes(arrow)), gone: KNOWN_UPWARD_ARROWS.filter((arrow) => !upward.includes(arrow)) }).toEqual({ new: [], gone: [] });
  });
});
