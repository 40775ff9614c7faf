import { Download, Ellipsis, Info, Trash2, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Badge } from '../../ui/Badge';
import { AreaChart, BarChart, BarList, COLOUR_GROUPS, StackedBar, type ColourGroup, colourOf, shadeOpacity } from '../../ui/charts';
import { type Column, DataTable } from '../../ui/DataTable';
import { DataGrid } from '../../ui/DataGrid';
import { FormProblem, fieldProblems } from '../../ui/FormProblem';
import { Menu } from '../../ui/Menu';
import { Toolbar } from '../../ui/Page';
import { Tabs } from '../../ui/Panels';
import { Skeleton, SkeletonCards, SkeletonChart, SkeletonStats, SkeletonTable, SkeletonText } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty } from '../../ui/States';
import { SectionTabs } from '../../ui/Tabs';
import { useToasts } from '../../ui/Toasts';
import { Tooltip } from '../../ui/Tooltip';
import './uikit.css';
import { FilterDemo, PEOPLE, SheetDemo, Specimen } from './UiKitParts';

// The UI kit's components: controls, surfaces and charts, live.

const CHART_GROUPS: ColourGroup[] = ['base', 'annualBonus', 'variable', 'benefits'];

/** Buttons, the page header, filters, stat cards, badges and tabs. */
export function Controls() {
  const { add } = useToasts();
  const [tab, setTab] = useState('cash');
  return (
    <>
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
    </>
  );
}

/** Drawers, menus, empty states, form failures, skeletons and tables. */
export function Surfaces() {
  const { add } = useToasts();
  return (
    <>
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

      <Specimen id="data-grid" title="Data grid" source="ui/DataGrid.tsx" note="Every large table: 10,000 generated rows here, only those in view drawn; pinned first column, resize and reorder (saved per person), density, sort and filter per column, the grid keyboard, Shift/Ctrl selection, cards on phones.">
        <GridSpecimen />
      </Specimen>
    </>
  );
}

/** The chart kinds, in the one chart theme. */
export function Charts() {
  return (
    <>
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
    </>
  );
}

interface GeneratedRow {
  id: string;
  name: string;
  department: string;
  level: string;
  base: number;
}

const DEPARTMENTS = ['Engineering', 'Sales', 'Finance', 'People', 'Design', 'Support'];
const GRID_COLUMNS: Column<GeneratedRow>[] = [
  { key: 'name', header: 'Name', rowHeader: true, size: 180, value: (row) => row.name, cell: (row) => row.name },
  { key: 'department', header: 'Department', size: 150, value: (row) => row.department, cell: (row) => row.department },
  { key: 'level', header: 'Level', size: 90, value: (row) => row.level, cell: (row) => row.level },
  { key: 'base', header: 'Base', numeric: true, size: 120, value: (row) => row.base, cell: (row) => `$${row.base.toLocaleString('en-US')}` },
];

/** 10,000 rows made up from their index (the same every time), to show the grid at the size it is built for. */
function GridSpecimen() {
  const rows = useMemo(
    () =>
      Array.from({ length: 10_000 }, (_, index): GeneratedRow => ({
        id: `row-${index + 1}`,
        name: `Person ${String(index + 1).padStart(5, '0')}`,
        department: DEPARTMENTS[index % DEPARTMENTS.length] as string,
        level: `P${(index % 6) + 1}`,
        base: 60_000 + ((index * 7919) % 140_000),
      })),
    [],
  );
  return (
    <DataGrid
      id="ui-kit-grid"
      label="Example: 10,000 people"
      rows={rows}
      columns={GRID_COLUMNS}
      rowKey={(row) => row.id}
      rowName={(row) => row.name}
      rowAttributes={(row) => ({ 'data-row-id': row.id })}
      filters
      bulkActions={(chosen) => <span className="muted small-text">{`Total base of the selected: $${chosen.reduce((sum, row) => sum + row.base, 0).toLocaleString('en-US')}`}</span>}
    />
  );
}
