import { defineModule } from '../kernel/modules.js';
import { chatAppOperations } from './chatApp/routes.js';
import { notificationOperations } from './routes.js';
import { notifyJobEnded } from './service.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** The company's chat app was installed through OAuth (or installed again). */
    'chatApp.installed': { provider: string; workspaceName: string | null };
    /** The chat channel the company's notifications go to was chosen. */
    'chatApp.channelChosen': { channelId: string; channelName: string };
    /** The chat app was disconnected and its token forgotten. */
    'chatApp.disconnected': Record<string, never>;
  }
}

export default defineModule({
  operations: [...notificationOperations, ...chatAppOperations],
  permissions: ['companySettings'],
  subscribers: [notifyJobEnded],
});
