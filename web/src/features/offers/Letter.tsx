import { Download } from 'lucide-react';
import { type CSSProperties, useEffect, useState } from 'react';
import { useParams } from 'wouter';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { useShownAsOf } from '../../api/offline';
import { FullSizeSpinner } from '../../ui/Spinner';
import { formatDate, formatMoney } from '../../ui/format';
import { AlternativesComparison } from './Alternatives';
import { EquityExplainer } from './EquityExplainer';
import { saveFile } from '../../ui/files';
import { type OfferLetter, packageView } from './common';
import { PackageChart } from './PackageChart';
import { AcceptForm, DeclineForm } from './Respond';
import { ValuationSlider } from './ValuationSlider';
import './offers.css';

/** The text colour that reads on a brand colour (WCAG relative luminance). */
function inkOn(hex: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return '#ffffff';
  const channel = (part: string) => {
    const value = parseInt(part, 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)].map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2 ? '#111827' : '#ffffff';
}

export const NO_LONGER_AVAILABLE = 'This offer is no longer available';

/** Why a link no longer opens, in the candidate's words. */
function closedReason(error: unknown): string {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'link_superseded':
      return 'The offer was changed after this link was sent. When it is ready again, you will get a new link.';
    case 'link_expired':
      return 'This link has expired. Ask your recruiter for a new one.';
    case 'offer_closed':
      return 'The offer has been accepted, declined, withdrawn, or it has expired.';
    default:
      return 'The link may be mistyped, or the offer has been withdrawn.';
  }
}

function Closed({ reason }: { reason: string }) {
  return (
    <main className="offer-letter-closed" id="main">
      <h1>{NO_LONGER_AVAILABLE}</h1>
      <p>{reason}</p>
    </main>
  );
}

function LetterView({ letter, token, onAnswered }: { letter: OfferLetter; token: string; onAnswered: (letter: OfferLetter) => void }) {
  const [choice, setChoice] = useState<string>(letter.packages[0]?.id ?? 'main');
  const [multiple, setMultiple] = useState(1);
  const [declining, setDeclining] = useState(false);
  const [pdfProblem, setPdfProblem] = useState<string | null>(null);
  const packages = letter.packages.map((entry) => packageView(entry.id ?? 'main', entry.label, entry.package));
  const chosen = packages.find((pkg) => pkg.key === choice) ?? packages[0];
  const facts = letter.equityFacts;
  const price = facts?.pricePerShare ?? 0;
  const grant = chosen?.grant ?? null;
  const answered = letter.state === 'accepted' || letter.state === 'declined';
  const asOf = useShownAsOf();
  const brand = { '--offer-brand': letter.company.brandColor, '--offer-brand-ink': inkOn(letter.company.brandColor) } as CSSProperties;

  useEffect(() => {
    document.title = `Your offer from ${letter.company.name}`;
  }, [letter.company.name]);

  async function accept(signature: string) {
    const reply = await api.POST('/api/offer-letters/{letterToken}/accept', {
      params: { path: { letterToken: token } },
      body: { signature, offerVersion: letter.offerVersion, alternativeId: chosen && chosen.key !== 'main' ? chosen.key : null },
    });
    if (reply.data) onAnswered(reply.data.data);
    return reply;
  }

  async function decline(reason: string) {
    const reply = await api.POST('/api/offer-letters/{letterToken}/decline', { params: { path: { letterToken: token } }, body: { reason } });
    if (reply.data) onAnswered(reply.data.data);
    return reply;
  }

  async function downloadPdf() {
    setPdfProblem(null);
    const { data, error, response } = await api.GET('/api/offer-letters/{letterToken}/pdf', { params: { path: { letterToken: token } }, parseAs: 'blob' });
    if (error || !data) return setPdfProblem(errorMessage(error, 'The PDF could not be made. Please try again.'));
    saveFile(data, response, 'offer-letter.pdf');
  }

  return (
    <main className="offer-letter" id="main" style={brand}>
      <header className="offer-letter-banner">
        <p className="offer-letter-brand">
          <span aria-hidden="true">{letter.company.logoText}</span>
          <span>{letter.company.name}</span>
        </p>
        <h1>
          Welcome, {letter.candidate.firstName}: your offer to join as {letter.title}
        </h1>
        <p>Please answer by {formatDate(letter.expiresOn)}.</p>
      </header>
      {asOf && (
        <p className="card" role="status">
          Offline: this is the copy kept on this device, as of {asOf.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.
        </p>
      )}
      {letter.welcomeMessage && <p className="offer-letter-welcome">{letter.welcomeMessage}</p>}
      <dl className="offer-letter-facts">
        <div>
          <dt>Role</dt>
          <dd>{letter.title}</dd>
        </div>
        <div>
          <dt>Location</dt>
          <dd>{letter.locationName}</dd>
        </div>
        {letter.postedRange && (
          <div>
            <dt>Posted pay range</dt>
            <dd>
              {formatMoney(letter.postedRange.min)} – {formatMoney(letter.postedRange.max)}
            </dd>
          </div>
        )}
        <div>
          <dt>Start date</dt>
          <dd>{formatDate(letter.startDate)}</dd>
        </div>
        <div>
          <dt>Offer open until</dt>
          <dd>{formatDate(letter.expiresOn)}</dd>
        </div>
      </dl>
      {letter.state === 'accepted' && letter.acceptance && (
        <div className="card offer-letter-done" role="status">
          <h2>You accepted this offer</h2>
          <p>
            Signed “{letter.acceptance.signature}” on {new Date(letter.acceptance.acceptedAt).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' })}, for {letter.acceptance.packageLabel}. Welcome aboard!
          </p>
        </div>
      )}
      {letter.state === 'declined' && (
        <div className="card" role="status">
          <h2>You declined this offer</h2>
          {letter.declineReason && <p>Your reason: {letter.declineReason}</p>}
        </div>
      )}
      {chosen && (
        <section className="card" aria-labelledby="offer-package-heading">
          <h2 id="offer-package-heading">Your package{packages.length > 1 ? `: ${chosen.label}` : ''}</h2>
          <PackageChart pkg={chosen} pricePerShare={price * multiple} title={`${chosen.label}: your pay in each of the first four years`} />
          {grant && <p className="muted small-text">Equity is shown at {multiple === 1 ? 'today’s price' : `${multiple}× today’s price`}; move the slider below to change it.</p>}
        </section>
      )}
      {grant && <EquityExplainer grant={grant} pricePerShare={facts ? price : null} />}
      {grant && facts && <ValuationSlider grant={grant} pricePerShare={price} valuation={facts.valuation} multiple={multiple} onChange={setMultiple} />}
      {packages.length > 1 && <AlternativesComparison packages={packages} pricePerShare={price} multiple={multiple} selected={chosen?.key} onSelect={answered ? undefined : setChoice} />}
      {letter.benefitsSummary && (
        <section className="card" aria-labelledby="offer-benefits-heading">
          <h2 id="offer-benefits-heading">Benefits</h2>
          <p className="offer-letter-benefits">{letter.benefitsSummary}</p>
        </section>
      )}
      {letter.company.aboutUs && (
        <section className="card" aria-labelledby="offer-about-heading">
          <h2 id="offer-about-heading">About {letter.company.name}</h2>
          <p className="offer-letter-benefits">{letter.company.aboutUs}</p>
        </section>
      )}
      {!answered && chosen && (
        <section className="card" aria-labelledby="offer-answer-heading">
          <h2 id="offer-answer-heading">Your answer</h2>
          {declining ? <DeclineForm onDecline={decline} onCancel={() => setDeclining(false)} /> : <AcceptForm packageLabel={chosen.label} onAccept={accept} />}
          {!declining && (
            <button type="button" className="ghost" onClick={() => setDeclining(true)}>
              I want to decline
            </button>
          )}
        </section>
      )}
      <div className="offer-letter-actions">
        <button type="button" onClick={() => void downloadPdf()}>
          <Download size={18} aria-hidden="true" /> Download the PDF
        </button>
      </div>
      {pdfProblem && <p role="alert">{pdfProblem}</p>}
    </main>
  );
}

/**
 * /offer-letter/:letterToken: the candidate's visual offer letter, by the token of their link —
 * no sign-in; kept by the service worker once opened, so it reads offline too.
 */
export function OfferLetterScreen() {
  const { letterToken = '' } = useParams<{ letterToken: string }>();
  const letter = useQuery('/api/offer-letters/{letterToken}', { params: { path: { letterToken } } }, { revalidateOnFocus: false, shouldRetryOnError: false });
  const [answered, setAnswered] = useState<OfferLetter | null>(null);
  const shown = answered ?? letter.data?.data;
  if (shown) return <LetterView letter={shown} token={letterToken} onAnswered={setAnswered} />;
  if (letter.error) {
    const status = statusOf(letter.error);
    if (status === 410 || status === 404) return <Closed reason={closedReason(letter.error)} />;
    return (
      <main className="offer-letter-closed" id="main">
        <h1>The letter could not be opened</h1>
        <p role="alert">{errorMessage(letter.error, 'Please check your connection and try again.')}</p>
        <button type="button" onClick={() => void letter.mutate()}>
          Try again
        </button>
      </main>
    );
  }
  return <FullSizeSpinner loading label="Opening your offer letter" />;
}
