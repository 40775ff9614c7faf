import { FileSignature } from 'lucide-react';
import { Link } from 'wouter';
import { usePerson } from '../../app/Guard';
import { usePostQuery } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { Empty, Loaded } from '../../ui/States';
import { formatDate } from '../../ui/format';
import { stateLabel, stateTone } from './common';
import './offers.css';

/**
 * /select-offer: the offers made to the signed-in person's own e-mail (the spec's "find offers by
 * email"), newest first; each open one opens its letter, the closed ones say what became of them.
 */
export function SelectOfferScreen() {
  const person = usePerson().data?.data;
  const offers = usePostQuery('/api/offers/find-by-email', {}, { revalidateOnFocus: true });
  return (
    <main className="offer-letter" id="main">
      <header>
        <h1>Your offers</h1>
        <p className="muted">Offers made to {person?.email ?? 'your e-mail address'}.</p>
      </header>
      <Loaded data={offers.data?.data} error={offers.error} retry={() => void offers.mutate()} inline>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No offers yet" icon={FileSignature}>
              When a company sends you an offer, it shows here.
            </Empty>
          ) : (
            <ul className="offers-list-cards" aria-label="Offers">
              {list.map((offer) => (
                <li key={offer.offerId} className="card" data-offer-id={offer.offerId}>
                  <h2>
                    {offer.title} at {offer.companyName}
                    <Badge tone={stateTone(offer.state)}>{stateLabel(offer.state)}</Badge>
                  </h2>
                  <p className="muted">
                    Starts {formatDate(offer.startDate)} · open until {formatDate(offer.expiresOn)}
                  </p>
                  {offer.letterToken ? (
                    <Link href={`/offer-letter/${offer.letterToken}`} className="button primary">
                      Open the letter<span className="visually-hidden"> from {offer.companyName}</span>
                    </Link>
                  ) : (
                    <p>This offer is no longer available.</p>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <p>
        <a href="/logout">Sign out</a>
      </p>
    </main>
  );
}
