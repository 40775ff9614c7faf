import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { documentImages, readDocumentImage, storeDocumentImage } from '../documents/images.js';
import { logoBytes } from './settings.js';
import { findSettingsRow } from './store.js';

export interface DocumentLogo {
  sha256: string;
  bytes: Buffer;
}

/**
 * The company's logo as documents draw it (the communicate settings' appearance), kept as a document
 * image by its SHA-256; null without a PNG or JPEG logo. A logo saved before images were kept is
 * stored on first use, so every document issued from now on names one.
 */
export async function documentLogo(db: Knex, scope: CompanyScope): Promise<DocumentLogo | null> {
  const bytes = logoBytes((await findSettingsRow(db, scope))?.logo ?? null);
  if (!bytes) return null;
  const image = readDocumentImage(bytes);
  if ('problem' in image) return null;
  if (!(await documentImages(db, scope, [image.sha256])).size) await storeDocumentImage(db, scope, bytes);
  return { sha256: image.sha256, bytes };
}
