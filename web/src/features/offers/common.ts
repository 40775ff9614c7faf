import { useEffect, useRef } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { invalidate } from '../../api/queries';
import { onRealtimeEvent } from '../../realtime/Realtime';
import type { Tone } from '../../ui/Badge';
import { majorOf } from '../../ui/format';
import type { PackageView } from './model';

export type Offer = components['schemas']['Offer'];
export type OfferSummary = components['schemas']['OfferSummary'];
export type OfferState = components['schemas']['OfferState'];
export type OfferPackage = components['schemas']['OfferPackage'];
export type OfferChecks = components['schemas']['OfferChecks'];
export type OfferLetter = components['schemas']['OfferLetter'];
export type OfferInput = components['schemas']['OfferInput'];
export type OfferPackageInput = components['schemas']['OfferPackageInput'];
export type OfferCheckRequest = components['schemas']['OfferCheckRequest'];

export const STATES: { state: OfferState; label: string; tone: Tone }[] = [
  { state: 'draft', label: 'Draft', tone: 'neutral' },
  { state: 'pendingApproval', label: 'Pending approval', tone: 'warning' },
  { state: 'approved', label: 'Approved', tone: 'info' },
  { state: 'sent', label: 'Sent', tone: 'info' },
  { state: 'opened', label: 'Opened', tone: 'accent' },
  { state: 'accepted', label: 'Accepted', tone: 'success' },
  { state: 'declined', label: 'Declined', tone: 'danger' },
  { state: 'expired', label: 'Expired', tone: 'neutral' },
  { state: 'rescinded', label: 'Rescinded', tone: 'danger' },
  { state: 'hireCancelled', label: 'Hire cancelled', tone: 'neutral' },
];

export const stateLabel = (state: OfferState): string => STATES.find((entry) => entry.state === state)?.label ?? state;
export const stateTone = (state: OfferState): Tone => STATES.find((entry) => entry.state === state)?.tone ?? 'neutral';

/** A package of the contract (minor units) as the letter's arithmetic takes it (major units). */
export function packageView(key: string, label: string, pkg: OfferPackage): PackageView {
  const equity = pkg.equity;
  return {
    key,
    label,
    currency: pkg.base.currency,
    base: majorOf(pkg.base),
    bonusTarget: pkg.bonusTarget ? majorOf(pkg.bonusTarget) : 0,
    variable: pkg.variable ? majorOf(pkg.variable) : 0,
    signOn: pkg.signOn ? majorOf(pkg.signOn) : 0,
    grant: equity
      ? {
          type: equity.type,
          shares: equity.shares,
          strikePrice: equity.strikePrice,
          cliffMonths: equity.cliffMonths,
          vestingMonths: equity.vestingMonths,
          frequency: equity.vestingFrequency,
          currency: equity.priceCurrency,
        }
      : null,
  };
}

/** The main package and the alternatives of an offer, as the letter shows them. */
export function offerPackages(offer: Pick<Offer, 'package' | 'alternatives'>): PackageView[] {
  return [packageView('main', 'The offer', offer.package), ...offer.alternatives.map((alternative) => packageView(alternative.id, alternative.label, alternative.package))];
}

/** What the server announces when an offer changes, is opened, viewed, accepted or declined. */
export interface OfferUpdate {
  offerId: string;
  state: OfferState;
  event: string;
  version: number;
  at: string;
}

function isOfferUpdate(payload: unknown): payload is OfferUpdate {
  return Boolean(payload && typeof payload === 'object' && typeof (payload as { offerId?: unknown }).offerId === 'string');
}

/**
 * Reads offers again when the server announces a change (the app's socket, with the multiplayer
 * flag): the list, and the one offer open on screen. `onUpdate` hears every announcement.
 */
export function useOfferUpdates(onUpdate?: (update: OfferUpdate) => void): void {
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(
    () =>
      onRealtimeEvent('emitOfferUpdate', (payload) => {
        if (!isOfferUpdate(payload)) return;
        void invalidate((path) => path === '/api/offers' || path === '/api/offers/{offerId}');
        latest.current?.(payload);
      }),
    [],
  );
}

/** Whole currency units typed in a form → the contract's minor units. */
export function toMinor(value: string, digits: number): number | null {
  const trimmed = value.replace(/[\s,]/g, '');
  if (!trimmed) return null;
  const number = Number(trimmed);
  if (!Number.isFinite(number)) return null;
  return Math.round(number * 10 ** digits);
}


/** "Opened the letter", "Approved" — a history entry's action as people say it. */
export function actionText(action: string): string {
  const known: Record<string, string> = {
    create: 'Created',
    revise: 'Edited (back to draft)',
    submit: 'Submitted',
    approve: 'Approved',
    reject: 'Sent back',
    send: 'Sent to the candidate',
    open: 'Opened the letter',
    opened: 'Opened the letter',
    view: 'Viewed the letter',
    accept: 'Accepted',
    decline: 'Declined',
    expire: 'Expired',
    rescind: 'Rescinded',
    cancelHire: 'Hire cancelled',
  };
  return known[action] ?? action.charAt(0).toUpperCase() + action.slice(1);
}
