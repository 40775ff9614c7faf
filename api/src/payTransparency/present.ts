import type { components } from '../contract-types.js';
import type { NoticeRow } from './store.js';

export function presentNotice(row: NoticeRow): components['schemas']['PayTransparencyNotice'] {
  return { year: Number(row.year), sentAt: new Date(row.sent_at).toISOString(), recipients: Number(row.recipients), trigger: row.trigger === 'schedule' ? 'schedule' : 'button' };
}
