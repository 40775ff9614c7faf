import { BarChart, type Series, colourOf } from '../../ui/charts';
import { type PackageView, equityAddsUp, packageByYear } from './model';

/**
 * The package as a chart: each of the first four years stacked by kind of pay — base, bonus at
 * target, variable, the sign-on bonus in the first year, and equity as it vests at `pricePerShare` —
 * in the chart theme's colour groups, with the numbers in a table for screen readers.
 */
export function PackageChart({ pkg, pricePerShare, title }: { pkg: PackageView; pricePerShare: number; title?: string }) {
  const years = packageByYear(pkg, pricePerShare);
  const series: Series[] = [
    { key: 'base', label: 'Base salary', colour: colourOf('base') },
    ...(pkg.bonusTarget > 0 ? [{ key: 'bonusTarget', label: 'Bonus at target', colour: colourOf('annualBonus') }] : []),
    ...(pkg.variable > 0 ? [{ key: 'variable', label: 'Variable pay', colour: colourOf('variable') }] : []),
    ...(pkg.signOn > 0 ? [{ key: 'signOn', label: 'Sign-on bonus', colour: colourOf('bonus') }] : []),
    ...(pkg.grant && equityAddsUp(pkg) ? [{ key: 'equity', label: pkg.grant.type === 'option' ? 'Stock options (vested value)' : 'RSUs (vested value)', colour: colourOf(pkg.grant.type) }] : []),
  ];
  return (
    <BarChart
      title={title ?? `${pkg.label}: pay by year`}
      data={years.map(({ year, base, bonusTarget, variable, signOn, equity }) => ({ year, base, bonusTarget, variable, signOn, equity }))}
      categoryKey="year"
      categoryLabel="Year"
      series={series}
      unit={{ kind: 'money', currency: pkg.currency }}
      stacked
      orientation="columns"
      height={260}
    />
  );
}
