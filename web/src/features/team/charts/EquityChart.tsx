import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type Schemas, formatMoney, formatNumber, majorOf, minorUnitOf } from '../common';

const VESTED = ['#3b5bdb', '#2b8a3e', '#e67700', '#862e9c', '#0b7285', '#c92a2a'];
const UNVESTED = ['#a5b4fc', '#8ce99a', '#ffd8a8', '#e599f7', '#99e9f2', '#ffa8a8'];

interface Props {
  chart: Schemas['TeamEquityDetailsChart'];
  settings: Schemas['TeamEquityDetailsSettings'];
}

/** Vesting over time: vested and unvested shares (or their value), in total or per grant, stacked by month. */
export default function EquityChart({ chart, settings }: Props) {
  const asValue = settings.measure === 'value';
  const pick = (part: { vestedShares: number; unvestedShares: number; vestedValue: Schemas['Money']; unvestedValue: Schemas['Money'] }) => ({
    vested: asValue ? majorOf(part.vestedValue) : part.vestedShares,
    unvested: asValue ? majorOf(part.unvestedValue) : part.unvestedShares,
  });
  const series: { key: string; label: string; color: string }[] = [];
  const perGrant = settings.breakdown === 'grant';
  const showVested = settings.series !== 'unvested';
  const showUnvested = settings.series !== 'vested';
  const groups = perGrant ? chart.grants.map((grant, index) => ({ id: grant.id, label: `${grant.grantNumber}`, index })) : [{ id: 'total', label: 'All grants', index: 0 }];
  for (const group of groups) {
    if (showVested) series.push({ key: `vested_${group.id}`, label: `Vested · ${group.label}`, color: VESTED[group.index % VESTED.length] ?? '#3b5bdb' });
    if (showUnvested) series.push({ key: `unvested_${group.id}`, label: `Unvested · ${group.label}`, color: UNVESTED[group.index % UNVESTED.length] ?? '#a5b4fc' });
  }
  const data = chart.months.map((month) => {
    const point: Record<string, number | string> = { month: month.month };
    if (perGrant) {
      for (const part of month.grants) {
        const values = pick(part);
        point[`vested_${part.grantId}`] = values.vested;
        point[`unvested_${part.grantId}`] = values.unvested;
      }
    } else {
      const values = pick(month);
      point.vested_total = values.vested;
      point.unvested_total = values.unvested;
    }
    return point;
  });
  const format = (value: number) => (asValue ? formatMoney({ amount: Math.round(value * 10 ** minorUnitOf(chart.currency)), currency: chart.currency }, { compact: true }) : formatNumber(value));
  return (
    <figure className="chart-box" aria-label={`Vesting over time in ${asValue ? 'value' : 'shares'}`} style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e6e9f2" />
          <XAxis dataKey="month" tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis tick={{ fontSize: 12 }} width={64} tickFormatter={(value: number) => format(value)} />
          <Tooltip formatter={(value) => format(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((item) => (
            <Area key={item.key} type="stepAfter" dataKey={item.key} name={item.label} stackId="equity" stroke={item.color} fill={item.color} fillOpacity={0.8} isAnimationActive={false} />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </figure>
  );
}
