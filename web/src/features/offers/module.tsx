import { FileSignature } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const list = () => import('./OffersList');
const builder = () => import('./Builder');
const detail = () => import('./OfferScreen');
const letter = () => import('./Letter');
const select = () => import('./SelectOffer');
const approvals = () => import('./Approvals');

/**
 * Offers (module `visualOfferLetter`): the recruiter's list, builder and offer; the candidate's
 * letter by the link's token (bare, no sign-in), and `/select-offer` for a signed-in candidate.
 */
export default defineModule({
  routes: [
    { path: '/offers', screen: lazyScreen(list, (m) => m.OffersScreen), module: 'visualOfferLetter' },
    { path: '/offers/approvals', screen: lazyScreen(approvals, (m) => m.ApprovalsScreen), module: 'visualOfferLetter' },
    { path: '/offers/new', screen: lazyScreen(builder, (m) => m.NewOfferScreen), module: 'visualOfferLetter' },
    { path: '/offers/:offerId/edit', screen: lazyScreen(builder, (m) => m.EditOfferScreen), module: 'visualOfferLetter' },
    { path: '/offers/:offerId', screen: lazyScreen(detail, (m) => m.OfferScreen), module: 'visualOfferLetter' },
    { path: '/offer-letter/:letterToken', screen: lazyScreen(letter, (m) => m.OfferLetterScreen), frame: 'bare' },
    { path: '/select-offer', screen: lazyScreen(select, (m) => m.SelectOfferScreen), frame: 'companyless' },
  ],
  nav: [{ href: '/offers', label: 'Offers', order: 30, module: 'visualOfferLetter', icon: FileSignature }],
  tiles: [{ module: 'visualOfferLetter', title: 'Offers', description: 'Visual offer letters for candidates, checked against the band.', href: '/offers', icon: FileSignature }],
});
