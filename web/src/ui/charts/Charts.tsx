import type { ReactNode } from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, type TooltipContentProps, XAxis, YAxis } from 'recharts';
import { NARROW, useMediaQuery } from '../hooks';
import { type Unit, formatFull, formatTick } from './theme';
import './charts.css';

// Every chart of the product is drawn here, in one theme: token colours (light and dark), axes and
// grid, number formats by currency and locale, one tooltip, a legend of colour groups, and the
// numbers in a table for screen readers. This file (and recharts) loads only with a screen that draws.

export interface Series {
  /** The data key. */
  key: string;
  label: string;
  /** A CSS colour, usually a colour group's (`colourOf`) or `NEUTRAL`. */
  colour: string;
  /** Lighter shades of one group (see `shadeOpacity`). */
  opacity?: number;
}

export type Datum = Record<string, string | number | null>;

export interface ChartProps {
  /** Names the figure, and captions its table. */
  title: string;
  data: Datum[];
  /** The key of each datum's category (the x axis, or the rows' labels). */
  categoryKey: string;
  /** The category column's header in the text alternative. */
  categoryLabel: string;
  series: Series[];
  unit: Unit;
  height?: number;
  stacked?: boolean;
  /** The id of a table already on screen with these numbers; otherwise the figure carries its own, visually hidden. */
  describedBy?: string;
  /** The figure's class, e.g. `chart` for the explorer's. */
  className?: string;
}

export interface BarChartProps extends ChartProps {
  /** `rows`: bars run sideways with their labels at the left (long labels, phones); `auto` picks rows past 6 categories. */
  orientation?: 'columns' | 'rows' | 'auto';
}

const AXIS_TICK = { fill: 'var(--chart-axis)', fontSize: 12 };
const AXIS_LINE = { stroke: 'var(--chart-grid)' };

/** The one tooltip: the category, then each series with its swatch and its value in full. */
function ChartTooltip({ active, payload, label, unit }: TooltipContentProps & { unit: Unit }) {
  if (!active || !payload?.length) return null;
  return (
    <div className="chart-tooltip">
      <p className="chart-tooltip-title">{label}</p>
      <ul>
        {payload.map((entry) => (
          <li key={String(entry.dataKey ?? entry.name)}>
            <span className="swatch" style={{ background: entry.color ?? entry.fill, opacity: entry.fillOpacity === undefined ? 1 : Number(entry.fillOpacity) }} aria-hidden="true" />
            <span className="chart-tooltip-name">{entry.name}</span>
            <span className="chart-tooltip-value">{typeof entry.value === 'number' ? formatFull(entry.value, unit) : String(entry.value ?? '—')}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The legend: each series' colour group and name. Decoration for sight; the table says it all. */
export function ChartLegend({ series }: { series: Pick<Series, 'label' | 'colour' | 'opacity' | 'key'>[] }) {
  return (
    <ul className="chart-legend" aria-hidden="true">
      {series.map((item) => (
        <li key={item.key}>
          <span className="swatch" style={{ background: item.colour, opacity: item.opacity ?? 1 }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** The numbers of a chart, as a table only screen readers meet. */
function DataTableAlternative({ title, data, categoryKey, categoryLabel, series, unit }: ChartProps) {
  return (
    // A table cannot be shrunk to nothing (it keeps its content's width), so its wrapper is what is hidden.
    <div className="visually-hidden">
      <table>
        <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{categoryLabel}</th>
          {series.map((item) => (
            <th key={item.key} scope="col">
              {item.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.map((datum, index) => (
          <tr key={`${String(datum[categoryKey])}-${index}`}>
            <th scope="row">{String(datum[categoryKey] ?? '')}</th>
            {series.map((item) => {
              const value = datum[item.key];
              return <td key={item.key}>{typeof value === 'number' ? formatFull(value, unit) : '—'}</td>;
            })}
          </tr>
        ))}
      </tbody>
      </table>
    </div>
  );
}

/** A figure around any chart: its name, the drawing (hidden from assistive tech), the legend and the text alternative. */
export function ChartFigure(props: ChartProps & { children: ReactNode; legend?: boolean }) {
  const { title, height = 260, describedBy, className, children, series, legend = series.length > 1 } = props;
  return (
    <figure className={className ? `chart-figure ${className}` : 'chart-figure'} aria-label={title} aria-describedby={describedBy}>
      <div className="chart-canvas" style={{ height }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      {legend && <ChartLegend series={series} />}
      {!describedBy && <DataTableAlternative {...props} />}
    </figure>
  );
}

/** Bars: one or more series per category, side by side or stacked, as columns or as rows. */
export function BarChartFigure(props: BarChartProps) {
  const { data, categoryKey, series, unit, stacked = false, orientation = 'auto' } = props;
  const phone = useMediaQuery(NARROW);
  const longest = Math.max(0, ...data.map((datum) => String(datum[categoryKey] ?? '').length));
  // Columns whose labels would collide on a phone run sideways instead.
  const rows = orientation === 'rows' || (orientation === 'auto' && (data.length > 6 || (data.length > 3 && longest > 14))) || (phone && data.length * Math.max(4, longest) * 7 > 300);
  const rowsHeight = Math.max(160, data.length * (series.length > 1 && !stacked ? 18 * series.length : 30) + 48);
  const height = rows && orientation !== 'rows' ? rowsHeight : (props.height ?? (rows ? rowsHeight : 260));
  const integer = unit.kind === 'count';
  const valueAxis = { tick: AXIS_TICK, axisLine: AXIS_LINE, tickLine: false, allowDecimals: !integer, tickFormatter: (value: number) => formatTick(value, unit) };
  const categoryAxis = { dataKey: categoryKey, tick: AXIS_TICK, axisLine: AXIS_LINE, tickLine: false };
  return (
    <ChartFigure {...props} height={height}>
      <BarChart data={data} layout={rows ? 'vertical' : 'horizontal'} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false} barCategoryGap="20%">
        <CartesianGrid stroke="var(--chart-grid)" strokeDasharray="3 3" vertical={rows} horizontal={!rows} />
        {rows ? (
          <>
            <XAxis type="number" {...valueAxis} />
            <YAxis type="category" {...categoryAxis} width={Math.min(160, Math.max(60, longest * 7))} interval={0} />
          </>
        ) : (
          <>
            <XAxis type="category" {...categoryAxis} interval={0} height={30} />
            <YAxis type="number" {...valueAxis} width={64} />
          </>
        )}
        <Tooltip cursor={{ fill: 'var(--chart-cursor)' }} content={(tooltip) => <ChartTooltip {...tooltip} unit={unit} />} />
        {series.map((item) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.label}
            fill={item.colour}
            fillOpacity={item.opacity ?? 1}
            stackId={stacked ? 'stack' : undefined}
            radius={stacked ? 0 : rows ? [0, 4, 4, 0] : [4, 4, 0, 0]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

export interface AreaChartProps extends ChartProps {
  series: (Series & { fillOpacity?: number })[];
}

/** Areas over time, stacked, stepping at each change (vesting, pay history). */
export function AreaChartFigure(props: AreaChartProps) {
  const { data, categoryKey, series, unit } = props;
  return (
    <ChartFigure {...props} height={props.height ?? 280}>
      <AreaChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--chart-grid)" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey={categoryKey} tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} minTickGap={24} />
        <YAxis tick={AXIS_TICK} axisLine={AXIS_LINE} tickLine={false} width={64} tickFormatter={(value: number) => formatTick(value, unit)} />
        <Tooltip content={(tooltip) => <ChartTooltip {...tooltip} unit={unit} />} />
        {series.map((item) => (
          <Area
            key={item.key}
            type="stepAfter"
            dataKey={item.key}
            name={item.label}
            stackId="stack"
            stroke={item.colour}
            strokeOpacity={item.opacity ?? 1}
            fill={item.colour}
            fillOpacity={item.fillOpacity ?? (item.opacity ?? 1) * 0.85}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ChartFigure>
  );
}
