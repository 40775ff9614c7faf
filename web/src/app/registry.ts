import { type HomeCard, type HomeTile, type ModuleName, type NavEntry, type RouteDeclaration, type WebModule, isNavLink } from './webModule';

// Every web module, by folder: `features/<area>/module.tsx` declares its routes, menu entries and
// home tiles (see webModule.ts). The files are small and load their screens lazily, so collecting
// them eagerly keeps the first load small.
const files = import.meta.glob<{ default: WebModule }>('../features/*/module.tsx', { eager: true });

export interface RegisteredModule {
  /** The folder under features/. */
  area: string;
  declaration: WebModule;
}

export const areaOf = (file: string): string => /\/features\/([^/]+)\/module\.tsx$/.exec(file)?.[1] ?? file;

/** The modules in the order of their folders' names. */
export const modules: readonly RegisteredModule[] = Object.entries(files)
  .map(([file, loaded]) => ({ area: areaOf(file), declaration: loaded.default }))
  .sort((a, b) => a.area.localeCompare(b.area));

export type RegisteredRoute = RouteDeclaration & { area: string };

/** Every route, module by module in declaration order (a module lists a catch-all after the paths it covers). */
export const routes: readonly RegisteredRoute[] = modules.flatMap(({ area, declaration }) => declaration.routes.map((route) => ({ ...route, area })));

/** The side menu, by order. */
export const navigation: readonly (NavEntry & { area: string })[] = modules
  .flatMap(({ area, declaration }) => (declaration.nav ?? []).map((entry) => ({ ...entry, area })))
  .sort((a, b) => a.order - b.order);

/** The home screen's tile of each module of the contract that has one. */
export const homeTiles: ReadonlyMap<ModuleName, HomeTile> = new Map(modules.flatMap(({ declaration }) => (declaration.tiles ?? []).map((tile) => [tile.module, tile] as const)));

/** The home screen's cards of every module, by order. */
export const homeCards: readonly (HomeCard & { area: string })[] = modules
  .flatMap(({ area, declaration }) => (declaration.cards ?? []).map((card) => ({ ...card, area })))
  .sort((a, b) => a.order - b.order);

/**
 * What would make the collected modules ambiguous: a path, a menu link, a menu position or a home
 * tile declared twice. Empty when every module is registered once (checked by a unit test).
 */
export function registryProblems(): string[] {
  const problems: string[] = [];
  const twice = <T>(what: string, values: T[], show: (value: T) => string) => {
    const seen = new Set<string>();
    for (const value of values) {
      const key = show(value);
      if (seen.has(key)) problems.push(`${what} ${key} is declared twice`);
      seen.add(key);
    }
  };
  twice('route', [...routes], (route) => route.path);
  twice('menu link', navigation.filter(isNavLink), (entry) => entry.href);
  twice('menu position', [...navigation], (entry) => String(entry.order));
  twice('home tile', modules.flatMap(({ declaration }) => declaration.tiles ?? []), (tile) => tile.module);
  return problems;
}
