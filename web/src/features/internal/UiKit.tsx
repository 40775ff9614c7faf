import {
  ArrowUpRight,
  ChartColumn,
  Download,
  Ellipsis,
  FileSignature,
  Gift,
  House,
  Inbox,
  Info,
  Layers,
  ListChecks,
  Palette,
  Plug,
  Search,
  Settings,
  SlidersHorizontal,
  Trash2,
  Users,
  Wrench,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { PaybenchMark, Brand } from '../../ui/Brand';
import { AreaChart, BarChart, BarList, COLOUR_GROUPS, StackedBar, type ColourGroup, colourOf, shadeOpacity } from '../../ui/charts';
import { DataTable } from '../../ui/DataTable';
import { type ActiveFilter, FilterBar } from '../../ui/FilterBar';
import { FormProblem, fieldProblems } from '../../ui/FormProblem';
import { Menu } from '../../ui/Menu';
import { Sheet } from '../../ui/Modal';
import { PageHeader, Toolbar } from '../../ui/Page';
import { Tabs } from '../../ui/Panels';
import { FailureScreen } from '../../ui/Screens';
import { Skeleton, SkeletonCards, SkeletonChart, SkeletonStats, SkeletonTable, SkeletonText } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty } from '../../ui/States';
import { SectionTabs } from '../../ui/Tabs';
import { useToasts } from '../../ui/Toasts';
import { Tooltip } from '../../ui/Tooltip';
import './uikit.css';

/** One entry of the kit: what it is for, where it lives, and the thing itself, live. */
function Specimen({ id, title, source, children, note }: { id: string; title: string; source: string; children: ReactNode; note?: ReactNode }) {
  return (
    <section className="specimen" aria-labelledby={`kit-${id}`} id={id}>
      <header className="specimen-head">
        <h2 id={`kit-${id}`}>{title}</h2>
        <code>{source}</code>
      </header>
      {note && <p className="muted small-text">{note}</p>}
      <div className="specimen-body">{children}</div>
    </section>
  );
}

const SEMANTIC = [
  ['--color-canvas', 'Canvas'],
  ['--color-surface', 'Surface'],
  ['--color-surface-sunken', 'Sunken'],
  ['--color-ink', 'Ink'],
  ['--color-ink-muted', 'Muted ink'],
  ['--color-border', 'Border'],
  ['--color-border-strong', 'Control border'],
  ['--color-accent', 'Accent'],
  ['--color-accent-soft', 'Accent, soft'],
  ['--color-focus', 'Focus ring'],
  ['--color-success', 'Success'],
  ['--color-warning', 'Warning'],
  ['--color-danger', 'Danger'],
  ['--color-info', 'Info'],
  ['--color-nav', 'Navigation'],
] as const;

const LAYERS = [
  ['hide', -1],
  ['base', 0],
  ['above', 1],
  ['sticky', 1100],
  ['banner', 1200],
  ['overlay', 1300],
  ['modal', 1400],
  ['tour', 1450],
  ['menu', 1500],
  ['popover', 1600],
  ['dropdown', 1650],
  ['tooltip', 1700],
  ['impersonationFrame', 1800],
] as const;

const BREAKPOINTS = [
  ['xs', 425],
  ['sm', 640],
  ['md', 768],
  ['lg', 1024],
  ['xl', 1280],
  ['2xl', 1536],
  ['3xl', 2560],
] as const;

const ICONS = { House, ChartColumn, Users, Plug, Layers, FileSignature, Gift, Settings, Wrench, ListChecks, Download, Search, SlidersHorizontal, Inbox, Info, Palette };

interface Person {
  name: string;
  department: string;
  level: string;
  base: string;
}

const PEOPLE: Person[] = [
  { name: 'Ada Lovelace', department: 'Engineering', level: 'P4', base: '$182,000' },
  { name: 'Grace Hopper', department: 'Engineering', level: 'M3', base: '$214,000' },
  { name: 'Katherine Johnson', department: 'Research', level: 'P3', base: '$156,000' },
];

function FilterDemo() {
  const [department, setDepartment] = useState('Engineering');
  const [level, setLevel] = useState('');
  const active: ActiveFilter[] = [
    ...(department ? [{ key: 'department', label: `Department: ${department}`, onRemove: () => setDepartment('') }] : []),
    ...(level ? [{ key: 'level', label: `Level: ${level}`, onRemove: () => setLevel('') }] : []),
  ];
  return (
    <FilterBar
      label="Filter the example"
      active={active}
      onClearAll={() => {
        setDepartment('');
        setLevel('');
      }}
      search={
        <label>
          Find a person
          <input type="search" placeholder="Name or e-mail" />
        </label>
      }
    >
      <label>
        Department
        <select value={department} onChange={(event) => setDepartment(event.target.value)}>
          <option value="">All</option>
          <option>Engineering</option>
          <option>Research</option>
        </select>
      </label>
      <label>
        Level
        <select value={level} onChange={(event) => setLevel(event.target.value)}>
          <option value="">All</option>
          <option>P3</option>
          <option>P4</option>
          <option>M3</option>
        </select>
      </label>
    </FilterBar>
  );
}

function SheetDemo() {
  const [open, setOpen] = useState<'right' | 'bottom' | null>(null);
  return (
    <div className="kit-row">
      <button type="button" onClick={() => setOpen('right')}>
        Open a drawer
      </button>
      <button type="button" onClick={() => setOpen('bottom')}>
        Open a bottom sheet
      </button>
      {open && (
        <Sheet
          title={open === 'right' ? 'A drawer' : 'A bottom sheet'}
          side={open}
          onClose={() => setOpen(null)}
          footer={
            <button type="button" className="primary" onClick={() => setOpen(null)}>
              Done
            </button>
          }
        >
          <p>Focus moved here and stays inside until the sheet closes (Escape, the close button, or a press outside); then it goes back to the button that opened it.</p>
        </Sheet>
      )}
    </div>
  );
}

const CHART_GROUPS: ColourGroup[] = ['base', 'annualBonus', 'variable', 'benefits'];

/** /internal/ui: the living reference of Paybench's design tokens and components, for internal admins. */
export function UiKitScreen() {
  const person = usePerson().data?.data;
  const { add } = useToasts();
  const [tab, setTab] = useState('cash');
  if (!person?.isInternalAdmin) {
    return <FailureScreen title="Permission denied" description="You do not have access to this content. Please contact your company admin for support." />;
  }
  return (
    <div className="uikit">
      <PageHeader
        eyebrow="Internal"
        title="UI kit"
        icon={Palette}
        description="Paybench's tokens and components as they are in the product today, light or dark as your system is set. Build new screens from these."
        actions={
          <a className="button" href="#charts">
            Charts
            <ArrowUpRight size={16} aria-hidden="true" />
          </a>
        }
      />

      <Specimen id="brand" title="Brand" source="ui/Brand.tsx">
        <div className="kit-row">
          <span className="kit-on-nav">
            <Brand />
          </span>
          <PaybenchMark size={48} title="Paybench" />
        </div>
        <p className="muted small-text">Paybench's own mark. A company's logo and colours (communicate → appearance) are not stored by the API yet; when they are, they take this place on employee-facing screens.</p>
      </Specimen>

      <Specimen id="colours" title="Colour" source="ui/tokens.css" note="Semantic colours: screens name the role, never a hex value, so dark mode follows the system setting on its own.">
        <ul className="swatches" aria-label="Semantic colours">
          {SEMANTIC.map(([token, label]) => (
            <li key={token}>
              <span className="swatch-big" style={{ background: `var(${token})` }} aria-hidden="true" />
              <span>{label}</span>
              <code>{token}</code>
            </li>
          ))}
        </ul>
      </Specimen>

      <Specimen id="comp-colours" title="Compensation colour groups" source="ui/charts/theme.ts" note="Every chart and legend that shows a kind of pay draws it in its group's colour (colourOf(groupOf(kind))); several series of one kind take its shades.">
        <ul className="swatches" aria-label="Compensation colour groups">
          {(Object.keys(COLOUR_GROUPS) as ColourGroup[]).map((group) => (
            <li key={group}>
              <span className="swatch-big" style={{ background: colourOf(group) }} aria-hidden="true" />
              <span>
                {COLOUR_GROUPS[group].label} <span className="muted">({group})</span>
              </span>
              <code>{COLOUR_GROUPS[group].token}</code>
            </li>
          ))}
        </ul>
      </Specimen>

      <Specimen id="type" title="Type" source="Inter, self-hosted (@fontsource/inter)">
        <div className="type-scale">
          <p style={{ fontSize: 'var(--text-3xl)', fontWeight: 700 }}>Pay people fairly · 34</p>
          <p style={{ fontSize: 'var(--text-2xl)', fontWeight: 700 }}>Page title · 28</p>
          <p style={{ fontSize: 'var(--text-xl)', fontWeight: 600 }}>Section title · 22</p>
          <p style={{ fontSize: 'var(--text-lg)', fontWeight: 600 }}>Card title · 18</p>
          <p>Body text · 16. The quick brown fox pays the lazy dog its market median.</p>
          <p className="small-text muted">Small and muted · 14</p>
        </div>
      </Specimen>

      <Specimen id="tokens" title="Breakpoints, layers and durations" source="ui/tokens.css (spec §9)">
        <div className="kit-columns">
          <DataTable
            caption="Breakpoints"
            rows={[...BREAKPOINTS]}
            rowKey={([name]) => name}
            columns={[
              { key: 'name', header: 'Name', rowHeader: true, cell: ([name]) => name },
              { key: 'px', header: 'Min width', numeric: true, cell: ([, px]) => `${px} px` },
            ]}
          />
          <DataTable
            caption="Layers"
            rows={[...LAYERS]}
            rowKey={([name]) => name}
            columns={[
              { key: 'name', header: 'Layer', rowHeader: true, cell: ([name]) => name },
              { key: 'z', header: 'z-index', numeric: true, cell: ([, z]) => z },
            ]}
          />
          <DataTable
            caption="Durations"
            rows={[50, 100, 150, 200, 300, 400, 500]}
            rowKey={(ms) => String(ms)}
            columns={[
              { key: 'token', header: 'Token', rowHeader: true, cell: (ms) => <code>--duration-{ms}</code> },
              { key: 'ms', header: 'Length', numeric: true, cell: (ms) => `${ms} ms` },
            ]}
          />
        </div>
      </Specimen>

      <Specimen id="icons" title="Icons" source="lucide-react (imported by name: only the icons used are bundled)">
        <ul className="icon-grid" aria-label="Icons in use">
          {Object.entries(ICONS).map(([name, Icon]) => (
            <li key={name}>
              <Icon size={24} aria-hidden="true" />
              <span className="small-text">{name}</span>
            </li>
          ))}
        </ul>
      </Specimen>

      <Specimen id="buttons" title="Buttons" source="ui/base.css" note="At least 44 px to tap; one focus ring for every control.">
        <div className="kit-row">
          <button type="button" className="primary">
            Primary
          </button>
          <button type="button">Default</button>
          <button type="button" className="ghost">
            Ghost
          </button>
          <button type="button" className="danger">
            <Trash2 size={18} aria-hidden="true" />
            Danger
          </button>
          <button type="button" className="small">
            Small
          </button>
          <button type="button" disabled>
            Disabled
          </button>
          <Tooltip content="More actions">
            <button type="button" className="icon-button" aria-label="More">
              <Ellipsis size={20} aria-hidden="true" />
            </button>
          </Tooltip>
        </div>
      </Specimen>

      <Specimen id="page-header" title="Page header and toolbar" source="ui/Page.tsx: PageHeader, Toolbar, Section" note="This page's own header is a PageHeader: its one h1, a description and page-wide actions.">
        <Toolbar label="Example toolbar">
          <span className="muted small-text">128 people</span>
          <button type="button">
            <Download size={18} aria-hidden="true" />
            Export
          </button>
          <Menu
            trigger="More"
            items={[
              { label: 'Open settings', href: '/settings' },
              { label: 'Say hello', onSelect: () => add('info', 'Hello from the menu.') },
            ]}
          />
        </Toolbar>
      </Specimen>

      <Specimen id="filters" title="Filter bar" source="ui/FilterBar.tsx" note="The search stays in view; from 640 px the filters sit in a row, on phones in a bottom sheet behind one button. Filters that are set show as chips.">
        <FilterDemo />
      </Specimen>

      <Specimen id="stats" title="Stat cards" source="ui/StatCard.tsx" note="A figure, its label and a hint; with href the whole card opens the screen the figure comes from.">
        <StatGrid label="Example figures">
          <StatCard label="Companies" value="12" hint="Opens the internal tools" icon={Users} href="/internal" linkLabel="Companies (example)" />
          <StatCard label="Annual payroll" value="$33.5M" hint="Base salary in USD" swatch={colourOf('base')} />
          <StatCard label="Average compa-ratio" value="1.02" hint="192 priced" />
        </StatGrid>
      </Specimen>

      <Specimen id="badges" title="Badges" source="ui/Badge.tsx" note="The words carry the meaning; the tone only helps.">
        <div className="kit-row">
          <Badge>Accent</Badge>
          <Badge tone="neutral">Neutral</Badge>
          <Badge tone="success">Available</Badge>
          <Badge tone="warning">Not set up</Badge>
          <Badge tone="danger">Failed</Badge>
          <Badge tone="info">Coming</Badge>
        </div>
      </Specimen>

      <Specimen id="tabs" title="Tabs" source="ui/Tabs.tsx (within a screen) · ui/Panels.tsx Tabs (between screens)" note="Arrow keys, Home and End move between tabs within a screen.">
        <SectionTabs
          label="Pay mix"
          selected={tab}
          onSelect={setTab}
          tabs={[
            { id: 'cash', label: 'Cash', panel: <p>Base salary, bonus targets, variable pay and commission.</p> },
            { id: 'equity', label: 'Equity', panel: <p>Options, RSUs and restricted stock, valued at the company’s share price.</p> },
            { id: 'benefits', label: 'Benefits', panel: <p>What the company pays for besides cash.</p> },
          ]}
        />
        <Tabs
          label="Example screens"
          tabs={[
            { href: '/internal/ui', label: 'UI kit' },
            { href: '/internal', label: 'Companies' },
          ]}
          exact
        />
      </Specimen>

      <Specimen id="sheets" title="Drawer, sheet and modal" source="ui/Modal.tsx: Sheet, Modal, Dialog">
        <SheetDemo />
      </Specimen>

      <Specimen id="menu" title="Menu and tooltip" source="ui/Menu.tsx · ui/Tooltip.tsx" note="The menu follows the WAI-ARIA menu button; a tooltip describes, it never names.">
        <div className="kit-row">
          <Menu
            trigger="Actions"
            items={[
              { label: 'Duplicate', onSelect: () => add('success', 'Duplicated.') },
              { label: 'Delete', onSelect: () => add('error', 'Deleted (not really).'), danger: true },
            ]}
          />
          <Tooltip content="Base salary ÷ the market median">
            <button type="button" className="ghost">
              <Info size={18} aria-hidden="true" />
              Compa-ratio
            </button>
          </Tooltip>
        </div>
      </Specimen>

      <Specimen id="empty" title="Empty state" source="ui/States.tsx: Empty" note="Every empty list says why it is empty and what to do next, with the action.">
        <Empty
          title="No employees yet"
          icon={Users}
          action={
            <a className="button primary" href="#empty">
              Import people
            </a>
          }
        >
          People appear here once they are imported from a file or your HR system.
        </Empty>
      </Specimen>

      <Specimen id="form-problem" title="A form's failure" source="ui/FormProblem.tsx: FormProblem, fieldProblems" note="The server's message as it gave it, then each field it named, in the form's own words and counting from 1.">
        <FormProblem
          message="Check the highlighted fields."
          fields={fieldProblems({ errors: [{ field: 'body.rules.0.country', message: 'must be a two-letter country code' }] }, { rules: 'Rule', country: 'country' })}
        />
      </Specimen>

      <Specimen id="skeletons" title="Skeletons" source="ui/Skeleton.tsx" note="Where the layout is known, its shapes stand in while the data comes; the full-size spinner is for waits whose layout is unknown.">
        <SkeletonStats count={3} label="Example: loading figures" />
        <SkeletonTable rows={3} columns={4} label="Example: loading a table" />
        <SkeletonCards count={2} label="Example: loading cards" />
        <SkeletonText lines={2} label="Example: loading text" />
        <Skeleton width={160} height={24} />
      </Specimen>

      <Specimen id="table" title="Table" source="ui/DataTable.tsx" note="Plain tables scroll sideways on phones; the virtualised grid (the team's employees) becomes cards under 640 px.">
        <DataTable
          caption="Example people"
          rows={PEOPLE}
          rowKey={(row) => row.name}
          regionLabel="Example people table"
          columns={[
            { key: 'name', header: 'Name', rowHeader: true, cell: (row) => row.name },
            { key: 'department', header: 'Department', cell: (row) => row.department },
            { key: 'level', header: 'Level', cell: (row) => row.level },
            { key: 'base', header: 'Base', numeric: true, cell: (row) => row.base },
          ]}
        />
      </Specimen>

      <Specimen id="charts" title="Charts" source="ui/charts (recharts, loaded with the first chart)" note="One theme: token colours, axes and grid, numbers by currency and locale, one tooltip, a legend of colour groups, and the numbers as a table for screen readers.">
        <BarChart
          title="Example: median pay mix by level, in USD"
          data={[
            { level: 'P2', base: 118000, annualBonus: 9000, variable: 4000, benefits: 12000 },
            { level: 'P3', base: 146000, annualBonus: 14000, variable: 6000, benefits: 13000 },
            { level: 'P4', base: 182000, annualBonus: 22000, variable: 9000, benefits: 14000 },
          ]}
          categoryKey="level"
          categoryLabel="Level"
          series={CHART_GROUPS.map((group) => ({ key: group, label: COLOUR_GROUPS[group].label, colour: colourOf(group) }))}
          unit={{ kind: 'money', currency: 'USD' }}
          stacked
          orientation="columns"
        />
        <AreaChart
          title="Example: shares vesting over four years, by grant"
          data={['2025', '2026', '2027', '2028'].map((year, index) => ({ year, first: 2500 * (index + 1), second: index > 0 ? 1000 * index : 0 }))}
          categoryKey="year"
          categoryLabel="Year"
          series={[
            { key: 'first', label: 'Options, first grant', colour: colourOf('option'), opacity: shadeOpacity(1, 2) },
            { key: 'second', label: 'Options, refresher', colour: colourOf('option'), opacity: shadeOpacity(0, 2) },
          ]}
          unit={{ kind: 'count' }}
          height={220}
        />
        <SkeletonChart height={120} label="Example: a chart loading" />
      </Specimen>

      <Specimen id="light-charts" title="Light charts" source="ui/charts/Bars.tsx: BarList, StackedBar" note="For dashboards and tiles: bars in HTML inside a real table, in the same colour groups and number formats; nothing waits for recharts, so a phone draws them at once.">
        <BarList
          title="Example: people by compa-ratio"
          bars={[
            { label: 'Below 0.80', value: 4, colour: colourOf('base') },
            { label: '0.80–0.90', value: 18, colour: colourOf('base') },
            { label: '0.90–1.10', value: 96, colour: colourOf('base') },
            { label: '1.10 and above', value: 31, colour: colourOf('base') },
          ]}
          categoryLabel="Compa-ratio"
          valueLabel="People"
          unit={{ kind: 'count' }}
        />
        <StackedBar
          title="Example: a pay mix, a year, in USD"
          bars={CHART_GROUPS.map((group, index) => ({ label: COLOUR_GROUPS[group].label, value: [146000, 14000, 6000, 13000][index] ?? 0, colour: colourOf(group) }))}
          categoryLabel="Pay"
          valueLabel="A year"
          unit={{ kind: 'money', currency: 'USD' }}
        />
      </Specimen>

      <Specimen id="toasts" title="Toasts" source="ui/Toasts.tsx" note="At the bottom, 560 px wide, above the phone's tab bar; each goes after 10 s or when closed.">
        <div className="kit-row">
          {(['success', 'info', 'warning', 'error'] as const).map((type) => (
            <button key={type} type="button" onClick={() => add(type, `A ${type} toast.`)}>
              Show {type}
            </button>
          ))}
        </div>
      </Specimen>
    </div>
  );
}
