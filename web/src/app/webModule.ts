import type { LucideIcon } from 'lucide-react';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { components } from '../../../openapi.d.ts';
import { retryImport } from './retryImport';

// What a web module declares in `features/<area>/module.tsx`: its routes, its links in the side
// menu and its tiles on the home screen. `app/registry.ts` collects every declaration by folder, so
// a new area needs no edit anywhere else. A module file stays small: it names its screens and loads
// them lazily (`lazyScreen`), so its code is not part of the first load.

/** A module of the product, as the contract names it (what a company has and a person may use). */
export type ModuleName = components['schemas']['ModuleName'];

/**
 * How a route's screen is framed:
 * - `signed` (the default): signed in with a company, inside the side menu, behind `module`'s gate if it names one;
 * - `companyless`: signed in, with or without a company yet, no side menu;
 * - `bare`: nothing around it and no session needed (sign-in, callbacks, errors).
 */
export type ScreenRoute =
  | { path: string; screen: ComponentType; frame?: 'signed'; module?: ModuleName }
  | { path: string; screen: ComponentType; frame: 'companyless' }
  | { path: string; screen: ComponentType; frame: 'bare' };

/** A path that only sends the person on (replacing the history entry). */
export interface RedirectRoute {
  path: string;
  redirect: string;
}

export type RouteDeclaration = ScreenRoute | RedirectRoute;

/**
 * A link in the side menu, shown when the person may use `module`, holds `permission` (an area that is
 * no switchable module, such as the data lab), or is an internal admin (with `internalOnly`).
 */
export interface NavLink {
  href: string;
  label: string;
  /** Where it sits in the menu: lower first. */
  order: number;
  module?: ModuleName;
  /** A permission name of the server's (e.g. `dataLab`): any grant of it, view or edit, shows the link. */
  permission?: string;
  internalOnly?: boolean;
  /** Its icon (lucide-react, imported by name so only the icons used are bundled). */
  icon?: LucideIcon;
}

/** Where a widget is drawn: in the full side menu, in the closed rail (icon only) or in the phone's top bar. */
export interface NavWidgetProps {
  compact: boolean;
}

/** Something of the module's own in the side menu (e.g. the background-jobs button); it decides itself whether to show. */
export interface NavWidget {
  key: string;
  order: number;
  widget: ComponentType<NavWidgetProps>;
}

export type NavEntry = NavLink | NavWidget;

/** The home screen's tile for a module of the contract. */
export interface HomeTile {
  module: ModuleName;
  title: string;
  description: string;
  /** The module's screen: where the tile leads once the module is on. */
  href: string;
  icon?: LucideIcon;
}

/**
 * A card of the module's own on the home screen, for something waiting for the person (a pulse
 * survey to answer); it decides itself whether to show, and loads lazily with the home screen.
 */
export interface HomeCard {
  key: string;
  /** Where it sits among the cards: lower first. */
  order: number;
  card: ComponentType;
}

export interface WebModule {
  routes: RouteDeclaration[];
  nav?: NavEntry[];
  tiles?: HomeTile[];
  cards?: HomeCard[];
}

/** A module's declaration (typed; returned as it is). */
export function defineModule(declaration: WebModule): WebModule {
  return declaration;
}

/**
 * A screen whose code arrives with its route: `load` imports the screen's file (retried 5 × 1 s,
 * then one reload), `pick` names the component in it — or wraps it with props.
 */
export function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyExoticComponent<ComponentType> {
  return lazy(() => retryImport(load).then((module) => ({ default: pick(module) })));
}

export const isRedirect = (route: RouteDeclaration): route is RedirectRoute => 'redirect' in route;
export const isNavLink = <E extends NavEntry>(entry: E): entry is E & NavLink => 'href' in entry;
