import { Megaphone } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const list = () => import('./PostingsList');
const editor = () => import('./PostingEditor');

/** Job postings (module `visualOfferLetter`, permission `postings`): the list and the editor with live rule checks. */
export default defineModule({
  routes: [
    { path: '/postings', screen: lazyScreen(list, (m) => m.PostingsScreen), module: 'visualOfferLetter' },
    { path: '/postings/new', screen: lazyScreen(editor, (m) => m.NewPostingScreen), module: 'visualOfferLetter' },
    { path: '/postings/:postingId', screen: lazyScreen(editor, (m) => m.EditPostingScreen), module: 'visualOfferLetter' },
  ],
  nav: [{ href: '/postings', label: 'Job postings', order: 35, module: 'visualOfferLetter', icon: Megaphone, permission: 'postings' }],
  tiles: [],
});
