import { v7 } from 'uuid';

/** Opaque, time-ordered ids (UUIDv7): index-friendly and unguessable enough to share nothing. */
export const newId = (): string => v7();
