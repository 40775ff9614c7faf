import { AreaChart, type Datum, type Unit, colourOf, groupOf, shadeOpacity } from '../../../ui/charts';
import { type Schemas, majorOf } from '../common';

interface Props {
  chart: Schemas['TeamEquityDetailsChart'];
  settings: Schemas['TeamEquityDetailsSettings'];
}

const TYPE_LABELS: Record<Schemas['EquityGrantType'], string> = { option: 'Options', rsu: 'RSUs', rsa: 'Restricted stock', common_stock: 'Common stock' };

/**
 * Vesting over time: vested and unvested shares (or their value), in total or per grant, stacked by
 * month. Each grant is drawn in its type's colour group (options, RSUs…), several of one type in its
 * shades; unvested is the same colour, faint.
 */
export function EquityChart({ chart, settings }: Props) {
  const asValue = settings.measure === 'value';
  const pick = (part: { vestedShares: number; unvestedShares: number; vestedValue: Schemas['Money']; unvestedValue: Schemas['Money'] }) => ({
    vested: asValue ? majorOf(part.vestedValue) : part.vestedShares,
    unvested: asValue ? majorOf(part.unvestedValue) : part.unvestedShares,
  });
  const perGrant = settings.breakdown === 'grant';
  const showVested = settings.series !== 'unvested';
  const showUnvested = settings.series !== 'vested';
  const types = new Set(chart.grants.map((grant) => grant.grantType));
  const totalGroup = types.size === 1 && chart.grants[0] ? groupOf(chart.grants[0].grantType) : 'future.equity';
  const groups = perGrant
    ? chart.grants.map((grant) => {
        const sameType = chart.grants.filter((other) => other.grantType === grant.grantType);
        return { id: grant.id, label: `${TYPE_LABELS[grant.grantType]} ${grant.grantNumber}`, colour: colourOf(groupOf(grant.grantType)), opacity: shadeOpacity(sameType.length - 1 - sameType.indexOf(grant), sameType.length) };
      })
    : [{ id: 'total', label: 'All grants', colour: colourOf(totalGroup), opacity: 1 }];
  const series = groups.flatMap((group) => [
    ...(showVested ? [{ key: `vested_${group.id}`, label: `Vested · ${group.label}`, colour: group.colour, opacity: group.opacity, fillOpacity: 0.85 * group.opacity }] : []),
    ...(showUnvested ? [{ key: `unvested_${group.id}`, label: `Unvested · ${group.label}`, colour: group.colour, opacity: group.opacity * 0.5, fillOpacity: 0.25 * group.opacity }] : []),
  ]);
  const data: Datum[] = chart.months.map((month) => {
    const point: Datum = { month: month.month };
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
  const unit: Unit = asValue ? { kind: 'money', currency: chart.currency } : { kind: 'count' };
  return <AreaChart title={`Vesting over time in ${asValue ? 'value' : 'shares'}`} data={data} categoryKey="month" categoryLabel="Month" series={series} unit={unit} />;
}
