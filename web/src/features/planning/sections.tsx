import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { type MeritCycle } from './common';

/** What a section of the cycle gets: the cycle as read, and how to keep the screen's copy current after a save. */
export interface SectionProps {
  cycle: MeritCycle;
  /** A save's answer becomes the cycle the screen shows (its version the next save's If-Match); other answers are asked again. */
  onSaved: (cycle: MeritCycle) => Promise<void>;
}

export interface SectionInfo {
  id: string;
  label: string;
  /** Set up in the draft (whole-company planners). */
  setup?: boolean;
  /** Exists once planning has started. */
  live?: boolean;
  /** Whole-company readers only. */
  wholeCompany?: boolean;
}

export const SECTIONS: SectionInfo[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'settings', label: 'Settings', setup: true, wholeCompany: true },
  { id: 'eligibility', label: 'Eligibility', setup: true, wholeCompany: true },
  { id: 'recommendations', label: 'Recommendations', setup: true, wholeCompany: true },
  { id: 'budget', label: 'Budget', setup: true, wholeCompany: true },
  { id: 'windows', label: 'Planning windows', setup: true, wholeCompany: true },
  { id: 'chains', label: 'Approval chains', setup: true, wholeCompany: true },
  { id: 'worksheets', label: 'Worksheets', live: true },
  { id: 'dashboard', label: 'Dashboard', live: true },
  { id: 'close', label: 'Close and export', live: true, wholeCompany: true },
];

export const hrefOf = (cycleId: string, section: string) => `/compensationplanning/cycles/${cycleId}${section === 'overview' ? '' : `/${section}`}`;

/** In a draft, each setup step ends with the way to the next one: the wizard's "next". */
export function NextStep({ cycle, after }: { cycle: MeritCycle; after: string }) {
  if (cycle.state !== 'draft') return null;
  const steps = SECTIONS.filter((section) => section.setup);
  const index = steps.findIndex((section) => section.id === after);
  const next = steps[index + 1];
  return (
    <p className="planning-next">
      <Link href={hrefOf(cycle.id, next ? next.id : 'overview')}>
        {next ? `Next: ${next.label}` : 'Next: review and start planning'}
        <ArrowRight size={16} aria-hidden="true" />
      </Link>
    </p>
  );
}
