import type { components } from '../../../../openapi.d.ts';

// What the users screens share: the records they show and how they word them.

export type User = components['schemas']['User'];

export type Role = components['schemas']['Role'];

export type AccessRequest = components['schemas']['AccessRequest'];

export type PermissionGroup = components['schemas']['PermissionGroup'];

export const fullName = (user: { firstName: string; lastName: string; email: string }) => `${user.firstName} ${user.lastName}`.trim() || user.email;

export const INVITATION_WORDS: Record<components['schemas']['UserInvitation']['status'], string> = {
  none: 'Not invited yet',
  pending: 'Invitation sent',
  expired: 'Invitation expired',
  revoked: 'Invitation revoked',
  accepted: 'Signed up',
};
