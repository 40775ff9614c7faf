import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { formatDate } from '../../ui/format';
import { Loaded } from '../../ui/States';
import { FLAG_WORDS, TAG_TEXT } from '../internal/EnterpriseTags';

type Tag = components['schemas']['EnterpriseTag'];

const SUBMISSION: Record<components['schemas']['DataSubmissionStatus']['status'], string> = {
  not_participating: 'Not taking part',
  awaiting_data: 'Taking part: the next market release will hold your employees',
  submitted: 'Taking part: your employees are in a market release',
};

const isTag = (tag: string): tag is Tag => tag in TAG_TEXT;

/**
 * The company's standing, read-only on the company info screen: whether it adds its data to the
 * market and when it last did, the customer segments Paybench set for it and the release flags in
 * force (what the company has; Paybench changes them).
 */
export function CompanyStanding() {
  const submission = useQuery('/api/company/data-submission-status');
  const tags = useQuery('/api/company/enterprise-tags');
  const flags = useQuery('/api/me/release-flags');
  return (
    <section className="card" aria-labelledby="standing-heading">
      <h2 id="standing-heading">Market participation and plan</h2>
      <Loaded data={submission.data?.data} error={submission.error} label="Loading market participation" inline>
        {(status) => (
          <dl>
            <dt>Market participation</dt>
            <dd data-testid="data-submission-status">{SUBMISSION[status.status]}</dd>
            <dt>Last added to the market</dt>
            <dd data-testid="data-submitted-at">{status.lastSubmittedAt ? formatDate(status.lastSubmittedAt) : 'Never'}</dd>
          </dl>
        )}
      </Loaded>
      <p className="muted small-text">
        Whether to take part, and your company’s profile, are set in <Link href="/benchmarkingsurvey/participation">Market data → Participation</Link>.
      </p>
      <Loaded data={tags.data?.data} error={tags.error} label="Loading customer segments" inline>
        {(list) => (
          <p data-testid="enterprise-tags">
            Customer segments:{' '}
            {list.length === 0
              ? 'none'
              : list.map((tag) => (
                  <Badge key={tag} tone="info">
                    {isTag(tag) ? TAG_TEXT[tag].label : tag}
                  </Badge>
                ))}
          </p>
        )}
      </Loaded>
      <Loaded data={flags.data?.data} error={flags.error} label="Loading release flags" inline>
        {(list) => (
          <ul className="access-list" aria-label="Release flags">
            {list.map((entry) => (
              <li key={entry.flag} data-flag={entry.flag}>
                {FLAG_WORDS[entry.flag]}: {entry.enabled ? <Badge tone="success">On</Badge> : <Badge tone="neutral">Off</Badge>}
                {!entry.isDefault && <span className="muted small-text"> (set for your company)</span>}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}
