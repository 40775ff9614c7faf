/** The title index's entries, built on a thread of their own at start-up (see warmTitleIndex). */
import { answerFromThread } from '../../threads/start.js';
import { titleEntries } from './index.js';

void answerFromThread(async () => titleEntries());
