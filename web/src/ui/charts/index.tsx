import { Suspense, lazy } from 'react';
import { retryImport } from '../../app/retryImport';
import { SkeletonChart } from '../Skeleton';
import type { AreaChartProps, BarChartProps } from './Charts';

// The charts a screen uses: lazily loaded (recharts arrives with the first chart on screen, never
// with the first page), with the chart's skeleton while it comes.

export type { BarChartProps, ChartProps, Datum, Series } from './Charts';
export * from './theme';
export { type Bar, BarList, StackedBar } from './Bars';

const charts = () => retryImport(() => import('./Charts'));
const LazyBar = lazy(() => charts().then((module) => ({ default: module.BarChartFigure })));
const LazyArea = lazy(() => charts().then((module) => ({ default: module.AreaChartFigure })));

export function BarChart(props: BarChartProps) {
  return (
    <Suspense fallback={<SkeletonChart height={props.height ?? 260} />}>
      <LazyBar {...props} />
    </Suspense>
  );
}

export function AreaChart(props: AreaChartProps) {
  return (
    <Suspense fallback={<SkeletonChart height={props.height ?? 280} />}>
      <LazyArea {...props} />
    </Suspense>
  );
}
