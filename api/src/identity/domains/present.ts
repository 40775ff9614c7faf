import type { components } from '../../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import { verificationRecord } from './resolver.js';
import type { CompanyDomainRow } from './store.js';

type CompanyDomain = components['schemas']['CompanyDomain'];

/** A claim as its company sees it; the TXT record to publish only while it is not proven. */
export function presentClaim(row: CompanyDomainRow, disputed: boolean): CompanyDomain {
  const status = row.status === 'proven' ? 'proven' : row.status === 'revoked' ? 'revoked' : disputed ? 'disputed' : 'pending';
  return {
    id: row.id,
    domain: row.domain,
    status,
    proof: row.proof,
    provenAt: isoTimestampOrNull(row.proven_at),
    txtRecord: row.status === 'proven' ? null : { host: row.domain, value: verificationRecord(row.token) },
    lastCheck: row.checked_at && row.last_check ? { at: isoTimestamp(row.checked_at), result: row.last_check } : null,
    ssoConnectionId: row.sso_connection_id,
    createdAt: isoTimestamp(row.created_at),
  };
}
