import { type GrantView, durationText, sharePrice, shareCount, stepText } from './model';

/**
 * The equity explainer: what the grant is (options or RSUs), when it vests (the cliff, then month
 * by month) and, for options, what the strike price means — in plain words, with this grant's numbers.
 */
export function EquityExplainer({ grant, pricePerShare, headingLevel = 2 }: { grant: GrantView; pricePerShare: number | null; headingLevel?: 2 | 3 }) {
  const currency = grant.currency;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const Sub = headingLevel === 2 ? 'h3' : 'h4';
  const cliffShares = grant.vestingMonths > 0 ? (grant.shares * Math.min(grant.cliffMonths, grant.vestingMonths)) / grant.vestingMonths : grant.shares;
  const after = grant.vestingMonths - grant.cliffMonths;
  return (
    <section className="offer-explainer" aria-labelledby="equity-explainer-heading">
      <Heading id="equity-explainer-heading">Your equity, explained</Heading>
      <div className="offer-explainer-grid">
        <article>
          <Sub>{grant.type === 'option' ? 'Stock options' : 'Restricted stock units (RSUs)'}</Sub>
          {grant.type === 'option' ? (
            <p>
              You are offered options on <strong>{shareCount(grant.shares)} shares</strong>. An option is the right to buy one share later at a fixed price, the strike price. Options are worth
              something when a share is worth more than the strike price; you pay the strike price when you buy (exercise) them.
            </p>
          ) : (
            <p>
              You are offered <strong>{shareCount(grant.shares)} RSUs</strong>. Each RSU becomes one share of the company when it vests, and you pay nothing for it. An RSU is worth whatever a
              share is worth on the day it vests.
            </p>
          )}
          <p className="muted small-text">
            {grant.type === 'option'
              ? 'Unlike RSUs, options cost money to exercise and can be worth nothing if the share price never rises above the strike price.'
              : 'Unlike stock options, RSUs keep some value as long as a share is worth anything: there is no price to pay.'}
          </p>
        </article>
        <article>
          <Sub>Cliff and vesting</Sub>
          {grant.cliffMonths > 0 ? (
            <p>
              Nothing vests during your first {durationText(grant.cliffMonths)} (the cliff). At the cliff, {shareCount(cliffShares)} {grant.type === 'option' ? 'options' : 'RSUs'} vest at once
              {after > 0 ? `; the rest vest ${stepText(grant.frequency)} over the following ${durationText(after)}` : ''}, so all of them are yours after {durationText(grant.vestingMonths)}.
            </p>
          ) : (
            <p>
              There is no cliff: your {grant.type === 'option' ? 'options' : 'RSUs'} vest {stepText(grant.frequency)} from your start date, all of them after {durationText(grant.vestingMonths)}.
            </p>
          )}
          <p className="muted small-text">If you leave before everything has vested, the part that has not vested is given up.</p>
        </article>
        {grant.type === 'option' && (
          <article>
            <Sub>What the strike price means</Sub>
            <p>
              Your strike price is <strong>{grant.strikePrice === null ? 'set on the grant date' : sharePrice(grant.strikePrice, currency)}</strong> per share: what you pay to buy each share.
              {pricePerShare !== null && grant.strikePrice !== null && (
                <>
                  {' '}
                  A share is valued at {sharePrice(pricePerShare, currency)} today, so each option is worth{' '}
                  {pricePerShare > grant.strikePrice ? sharePrice(pricePerShare - grant.strikePrice, currency) : 'nothing yet'} on paper.
                </>
              )}
            </p>
            <p className="muted small-text">The strike price is normally the fair market value of a share when the grant is made.</p>
          </article>
        )}
      </div>
    </section>
  );
}
