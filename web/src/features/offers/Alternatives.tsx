import { type PackageView, equityAddsUp, equityOverFourYears, firstYearCash, fourYearTotal, money, multipleText, sharePrice, shareCount } from './model';

function grantText(pkg: PackageView): string {
  if (!pkg.grant) return 'None';
  const kind = pkg.grant.type === 'option' ? 'options' : 'RSUs';
  const strike = pkg.grant.type === 'option' && pkg.grant.strikePrice !== null ? ` at ${sharePrice(pkg.grant.strikePrice, pkg.grant.currency)}` : '';
  return `${shareCount(pkg.grant.shares)} ${kind}${strike}`;
}

/**
 * The packages side by side — the offer and its alternatives — with the equity valued at the
 * slider's price, so moving the slider moves the comparison. With `onSelect`, each column has a
 * button to choose it (the package the candidate accepts).
 */
export function AlternativesComparison({
  packages,
  pricePerShare,
  multiple,
  selected,
  onSelect,
}: {
  packages: PackageView[];
  pricePerShare: number;
  multiple: number;
  selected?: string;
  onSelect?: (key: string) => void;
}) {
  const price = pricePerShare * multiple;
  const rows: { label: string; value: (pkg: PackageView) => string }[] = [
    { label: 'Base salary', value: (pkg) => money(pkg.base, pkg.currency) },
    { label: 'Bonus at target', value: (pkg) => money(pkg.bonusTarget, pkg.currency) },
    { label: 'Variable pay', value: (pkg) => money(pkg.variable, pkg.currency) },
    { label: 'Sign-on bonus', value: (pkg) => money(pkg.signOn, pkg.currency) },
    { label: 'First-year cash', value: (pkg) => money(firstYearCash(pkg), pkg.currency) },
    { label: 'Equity grant', value: grantText },
    { label: `Equity over four years at ${multipleText(multiple)}`, value: (pkg) => money(equityOverFourYears(pkg.grant, price), pkg.grant?.currency ?? pkg.currency) },
    { label: `Four years in all at ${multipleText(multiple)}`, value: (pkg) => `${money(fourYearTotal(pkg, price), pkg.currency)}${pkg.grant && !equityAddsUp(pkg) ? ' (cash only)' : ''}` },
  ];
  return (
    <section className="offer-compare" aria-labelledby="offer-compare-heading">
      <h2 id="offer-compare-heading">Compare your packages</h2>
      <p className="muted">Choose the mix of cash and equity that suits you. Equity is valued at the slider’s setting.</p>
      <div className="table-scroll" role="region" aria-label="Packages compared" tabIndex={0}>
        <table className="offer-compare-table">
          <caption className="visually-hidden">Packages compared</caption>
          <thead>
            <tr>
              <td />
              {packages.map((pkg) => (
                <th key={pkg.key} scope="col" aria-current={selected === pkg.key ? 'true' : undefined}>
                  {pkg.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {packages.map((pkg) => (
                  <td key={pkg.key} data-package={pkg.key}>
                    {row.value(pkg)}
                  </td>
                ))}
              </tr>
            ))}
            {onSelect && (
              <tr>
                <td />
                {packages.map((pkg) => (
                  <td key={pkg.key}>
                    <button type="button" className={selected === pkg.key ? 'primary small' : 'small'} aria-pressed={selected === pkg.key} onClick={() => onSelect(pkg.key)}>
                      {selected === pkg.key ? 'Chosen' : 'Choose'}
                      <span className="visually-hidden"> {pkg.label}</span>
                    </button>
                  </td>
                ))}
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
