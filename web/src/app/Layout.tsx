import { CloudOff, LogOut, Menu as MenuIcon } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useCompanyCurrency, useCompanyProfile } from '../api/company';
import { keptPaths, useShownAsOf } from '../api/offline';
import { type QueryPath, invalidate } from '../api/queries';
import { Realtime } from '../realtime/Realtime';
import { Brand } from '../ui/Brand';
import { useMediaQuery } from '../ui/hooks';
import { Sheet } from '../ui/Modal';
import { Tooltip } from '../ui/Tooltip';
import { usePerson } from './Guard';
import { ImpersonationFrame } from './ImpersonationFrame';
import { navigation } from './registry';
import { type NavLink, type NavWidget, isNavLink } from './webModule';
import './Layout.css';

/** Phones: a top bar and a tab bar at the bottom (below the md breakpoint, 768 px). */
const PHONE = '(max-width: 767px)';
/** Tablets: the side menu closed to its 57 px rail (md to lg). */
const RAIL = '(min-width: 768px) and (max-width: 1023px)';
/** How many links the phone's tab bar holds before "Menu". */
const TAB_BAR_LINKS = 4;

/** The link of the current screen: the longest menu link the location is at or under. */
function currentHref(links: NavLink[], location: string): string | undefined {
  return links
    .filter((link) => location === link.href || location.startsWith(`${link.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
}

function NavItem({ link, current, compact = false }: { link: NavLink; current: boolean; compact?: boolean }) {
  const Icon = link.icon;
  const anchor = (
    <Link href={link.href} className="nav-link" aria-current={current ? 'page' : undefined}>
      {Icon && <Icon size={20} aria-hidden="true" />}
      <span className={compact ? 'visually-hidden' : 'nav-label'}>{link.label}</span>
    </Link>
  );
  return compact ? (
    <Tooltip content={link.label} side="right">
      {anchor}
    </Tooltip>
  ) : (
    anchor
  );
}

function SignOut({ compact = false }: { compact?: boolean }) {
  const anchor = (
    <a href="/logout" className="nav-link sign-out">
      <LogOut size={20} aria-hidden="true" />
      <span className={compact ? 'visually-hidden' : 'nav-label'}>Sign out</span>
    </a>
  );
  return compact ? (
    <Tooltip content="Sign out" side="right">
      {anchor}
    </Tooltip>
  ) : (
    anchor
  );
}

/** Who is signed in, and at which company. */
function Account() {
  const person = usePerson().data?.data;
  // A candidate reads only their offer: no company profile for them.
  const member = Boolean(person?.companyId && !person.isCandidate);
  const company = useCompanyProfile(member).profile;
  const { currency } = useCompanyCurrency(member);
  if (!person) return null;
  const name = [person.firstName, person.lastName].filter(Boolean).join(' ') || person.email;
  return (
    <div className="account">
      <span className="avatar" aria-hidden="true">
        {(person.firstName[0] ?? person.email[0] ?? '?').toUpperCase()}
        {(person.lastName[0] ?? '').toUpperCase()}
      </span>
      <span className="account-text">
        <span className="account-name">{name}</span>
        <span className="account-detail">
          {company?.name ?? person.email}
          {currency && <span title="The company currency"> · {currency}</span>}
        </span>
      </span>
    </div>
  );
}

const asOfFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** While kept copies show and the device says it is online, how often they are asked again. */
const RETRY_KEPT_MS = 10_000;

/** Asks the answers shown from kept copies again. */
function refreshKept(): void {
  const kept = keptPaths();
  if (kept.length > 0) void invalidate((path: QueryPath) => kept.includes(path));
}

/**
 * Shown while what is on screen comes from the copies this device kept (the network does not
 * answer): since when. When the network is back those answers are asked again, and again every
 * 10 s while the device is online but the server has not answered yet.
 */
function OfflineNote() {
  const asOf = useShownAsOf();
  const showing = asOf !== null;
  useEffect(() => {
    if (!showing) return;
    window.addEventListener('online', refreshKept);
    const timer = setInterval(() => {
      if (navigator.onLine) refreshKept();
    }, RETRY_KEPT_MS);
    return () => {
      window.removeEventListener('online', refreshKept);
      clearInterval(timer);
    };
  }, [showing]);
  if (!asOf) return null;
  return (
    <p className="offline-note" role="status">
      <CloudOff size={16} aria-hidden="true" />
      <span>
        Offline · as of <time dateTime={asOf.toISOString()}>{asOfFormat.format(asOf)}</time>
      </span>
    </p>
  );
}

/**
 * The signed-in frame. From 1024 px the side menu is open (237 px): Paybench's mark, the modules'
 * links with their icons, their widgets, who is signed in and Sign out. From 768 px it is the closed
 * rail (57 px), icons with their names as tooltips. On phones a top bar holds the mark and the
 * widgets, and a tab bar at the bottom the first links and "Menu" (every link, and Sign out).
 * While viewing as, the impersonation frame surrounds it all. Above the screen, "Offline · as of …"
 * while it shows the device's kept copies.
 */
export function Layout({ children }: { children: ReactNode }) {
  const person = usePerson().data?.data;
  const [location] = useLocation();
  const phone = useMediaQuery(PHONE);
  const rail = useMediaQuery(RAIL);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location, phone]);

  const authorized = new Set<string>(person?.modules.filter((m) => m.authorized).map((m) => m.module));
  // The modules' menu entries, in their order: links the person may follow, and the modules' own widgets.
  const mayFollow = (link: NavLink): boolean => {
    if (link.internalOnly) return Boolean(person?.isInternalAdmin);
    if (link.permission) return (person?.permissionsV3[link.permission]?.length ?? 0) > 0;
    return !link.module || authorized.has(link.module);
  };
  const entries = navigation.filter((entry) => !isNavLink(entry) || mayFollow(entry));
  const links = entries.filter(isNavLink);
  const widgets = entries.filter((entry): entry is NavWidget & { area: string } => !isNavLink(entry));
  const current = currentHref(links, location);
  const frameClass = ['frame', phone ? 'phone' : rail ? 'rail' : 'open', person?.viewAs ? 'impersonating' : ''].filter(Boolean).join(' ');

  return (
    <div className={frameClass}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ImpersonationFrame />
      <Realtime />
      {phone ? (
        <>
          <header className="top-bar">
            <Link href="/home" className="brand-link">
              <Brand />
            </Link>
            <div className="top-bar-widgets">
              {widgets.map((entry) => (
                <entry.widget key={entry.key} compact />
              ))}
            </div>
          </header>
          <nav className="tab-bar" aria-label="Main">
            {links.slice(0, TAB_BAR_LINKS).map((link) => (
              <NavItem key={link.href} link={link} current={link.href === current} />
            ))}
            <button type="button" className="nav-link" aria-haspopup="dialog" aria-expanded={menuOpen} onClick={() => setMenuOpen(true)}>
              <MenuIcon size={20} aria-hidden="true" />
              <span className="nav-label">Menu</span>
            </button>
          </nav>
          {menuOpen && (
            // Sign out sits in the sheet's foot, in view however many screens the list holds.
            <Sheet title="Menu" side="bottom" onClose={() => setMenuOpen(false)} className="menu-sheet" footer={<SignOut />}>
              <Account />
              <nav aria-label="All screens" className="menu-sheet-links">
                {links.map((link) => (
                  <NavItem key={link.href} link={link} current={link.href === current} />
                ))}
              </nav>
            </Sheet>
          )}
        </>
      ) : (
        <nav className="side-menu" aria-label="Main">
          <Link href="/home" className="brand-link">
            <Brand compact={rail} />
          </Link>
          <div className="side-menu-links">
            {links.map((link) => (
              <NavItem key={link.href} link={link} current={link.href === current} compact={rail} />
            ))}
            {widgets.map((entry) => (
              <entry.widget key={entry.key} compact={rail} />
            ))}
          </div>
          <div className="side-menu-foot">
            {!rail && <Account />}
            <SignOut compact={rail} />
          </div>
        </nav>
      )}
      <main id="main" className="content" tabIndex={-1}>
        <OfflineNote />
        {children}
      </main>
    </div>
  );
}
