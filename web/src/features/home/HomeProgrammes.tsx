import { CalendarClock, Layers, Mail, Sparkles } from 'lucide-react';
import { type ReactNode } from 'react';
import { Link } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { homeTiles } from '../../app/registry';
import { Badge, type Tone } from '../../ui/Badge';
import { formatNumber } from '../../ui/format';
import { Section } from '../../ui/Page';
import { type Person, stateOf, stateText } from './homeState';

// The home screen's programmes: what runs, what waits for the person, and the modules they have.

/** People out of band: from the live band set's evaluation, or why there is no figure yet. */
export function useOutOfBand(authorized: boolean): { text: string; state: { text: string; tone: Tone }; link?: { href: string; label: string } } | undefined {
  const sets = useQuery('/api/bands/band-sets', authorized ? {} : null);
  const live = sets.data?.data.find((set) => set.status === 'live');
  const evaluation = useQuery('/api/bands/band-sets/{bandSetId}/evaluation', live ? { params: { path: { bandSetId: live.id } } } : null);
  if (!authorized) return undefined;
  if (sets.error || evaluation.error) return { text: errorMessage(sets.error ?? evaluation.error), state: { text: 'Not available', tone: 'danger' } };
  if (!sets.data) return { text: 'Looking for your live band set…', state: { text: 'Loading', tone: 'neutral' } };
  if (!live) {
    return sets.data.data.length
      ? { text: 'A band set is drafted but none is live yet, so nobody is measured against one.', state: { text: 'Not live', tone: 'warning' }, link: { href: '/bands', label: 'Publish a band set' } }
      : { text: 'Salary bands are not set up yet, so nobody can be measured against one.', state: { text: 'Not set up', tone: 'warning' }, link: { href: '/bands', label: 'Set up salary bands' } };
  }
  const employees = evaluation.data?.data.employees;
  if (!employees) return { text: `Measuring everyone against ${live.name}…`, state: { text: 'Loading', tone: 'neutral' } };
  const below = employees.filter((employee) => employee.position === 'below').length;
  const above = employees.filter((employee) => employee.position === 'above').length;
  return {
    text: `${formatNumber(below)} below and ${formatNumber(above)} above their band in ${live.name}, of ${formatNumber(employees.length)} in bands.`,
    state: below + above > 0 ? { text: `${formatNumber(below + above)} out of band`, tone: 'warning' } : { text: 'Everyone in band', tone: 'success' },
    link: { href: '/bands', label: 'Open salary bands' },
  };
}

/** Salary bands, merit cycles and insights: what the programmes say today, in their modules' real state. */
export function Programmes({ person }: { person: Person }) {
  const bands = stateOf(person.modules, 'bands');
  const outOfBand = useOutOfBand(bands?.authorized ?? false);
  const planning = stateOf(person.modules, 'compplanning');
  const cards: { key: string; title: string; icon: ReactNode; text: string; link?: { href: string; label: string }; state: { text: string; tone: Tone } }[] = [
    {
      key: 'bands',
      title: 'People out of band',
      icon: <Layers size={18} aria-hidden="true" />,
      text: outOfBand?.text ?? (bands?.available ? 'Measured against your salary bands once your role includes them.' : 'Measured against your salary bands once the bands module is on.'),
      link: outOfBand?.link ?? { href: '/bands', label: bands?.available ? 'Ask for salary bands' : 'Why salary bands are off' },
      state: outOfBand?.state ?? stateText(bands),
    },
    {
      key: 'cycle',
      title: 'Merit cycle',
      icon: <CalendarClock size={18} aria-hidden="true" />,
      text: planning?.authorized ? 'No cycle is open. A cycle’s progress and budget show here while it runs.' : 'A merit cycle’s progress and budget show here once compensation planning is on.',
      link: planning?.authorized ? { href: '/compensationplanning', label: 'Plan a merit cycle' } : { href: '/compensationplanning', label: planning?.available ? 'Ask for compensation planning' : 'Why planning is off' },
      state: planning?.authorized ? { text: 'No open cycle', tone: 'neutral' } : stateText(planning),
    },
    {
      key: 'insights',
      title: 'Newest insights',
      icon: <Sparkles size={18} aria-hidden="true" />,
      text: 'The data lab lists insights computed from your people, bands, merit cycles and the market, for the people you may see.',
      link: { href: '/paybench-data-lab', label: 'Open the data lab' },
      state: { text: 'Data lab', tone: 'info' },
    },
  ];
  return (
    <ul className="programme-list" aria-label="Programmes">
      {cards.map((card) => (
        <li key={card.key} className="programme">
          <div className="programme-head">
            <span className="programme-icon">{card.icon}</span>
            <h3>{card.title}</h3>
            <Badge tone={card.state.tone}>{card.state.text}</Badge>
          </div>
          <p className="muted small-text">{card.text}</p>
          {card.link && (
            <Link href={card.link.href} className="button small">
              {card.link.label}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Letters and offers waiting for an employee, as their modules stand. */
export function Waiting({ person }: { person: Person }) {
  const letters = stateOf(person.modules, 'rewardLetters');
  const offers = stateOf(person.modules, 'visualOfferLetter');
  const lines = [
    { key: 'letters', title: 'Reward letters', state: letters, on: 'Your reward letter appears here when a merit cycle ends.' },
    { key: 'offers', title: 'Offers', state: offers, on: 'An offer made to you appears here.' },
  ];
  return (
    <Section title="Letters and offers" id="home-waiting">
      <ul className="programme-list" aria-label="Letters and offers">
        {lines.map((line) => {
          const state = line.state?.available ? { text: 'Nothing waiting', tone: 'neutral' as const } : stateText(line.state);
          return (
            <li key={line.key} className="programme">
              <div className="programme-head">
                <span className="programme-icon">
                  <Mail size={18} aria-hidden="true" />
                </span>
                <h3>{line.title}</h3>
                <Badge tone={state.tone}>{state.text}</Badge>
              </div>
              <p className="muted small-text">{line.state?.available ? line.on : 'Not used by your company yet.'}</p>
              {line.key === 'letters' && line.state?.available && (
                <Link href="/rewardletters" className="button small">
                  Your reward letters
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/** Every module of the contract with its state; each card links to the module's address, which opens it or says why not. */
export function ModuleTiles({ person, onlyAuthorized }: { person: Person; onlyAuthorized: boolean }) {
  const modules = onlyAuthorized ? person.modules.filter((entry) => entry.authorized) : person.modules;
  if (!modules.length) return null;
  return (
    <Section title="Your modules" id="home-modules">
      <ul className="module-tiles" aria-label="Modules">
        {modules.map((entry) => {
          const tile = homeTiles.get(entry.module);
          const Icon = tile?.icon;
          const state = stateText(entry);
          return (
            <li key={entry.module} className={entry.authorized ? 'module-tile on' : 'module-tile off'} data-module={entry.module}>
              <div className="module-tile-head">
                {Icon && (
                  <span className="programme-icon">
                    <Icon size={18} aria-hidden="true" />
                  </span>
                )}
                <h3>
                  {tile ? (
                    <Link href={tile.href} className="module-link">
                      {tile.title}
                    </Link>
                  ) : (
                    entry.module
                  )}
                </h3>
              </div>
              {tile && <p className="muted small-text">{tile.description}</p>}
              <Badge tone={state.tone} className="module-state">
                {state.text}
              </Badge>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
