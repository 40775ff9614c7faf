import { useState } from 'react';
import { useParams } from 'wouter';
import { api, useQuery } from '../../api/client';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import { TeamError, formatNumber, problemOf, statusOf } from './common';

/** Saves a fetched file under its name (it is fetched with the person's token, so a plain link would not do). */
function save(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** /bulk-download-employee-comp/:downloadId — the employee compensation file a bulk export made. */
export function BulkDownloadEmployeeCompScreen() {
  const { downloadId = '' } = useParams<{ downloadId: string }>();
  const metadata = useQuery('/api/downloads/{downloadId}/metadata', { params: { path: { downloadId } } });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (metadata.error) {
    return statusOf(metadata.error) === 404 ? (
      <FailureScreen title="Not found" description="This file does not exist, has expired, or is not yours to download." actions={<a href="/team">Back to the team</a>} />
    ) : (
      <TeamError error={metadata.error} retry={() => void metadata.mutate()} />
    );
  }
  const file = metadata.data?.data;
  if (!file) return <FullSizeSpinner loading label="Loading the download" />;
  const expired = new Date(file.expiresAt).getTime() < Date.now();

  async function download() {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    const { data, error } = await api.GET('/api/downloads/{downloadId}', { params: { path: { downloadId } }, parseAs: 'blob' });
    setBusy(false);
    if (error || !data) return setProblem(problemOf(error));
    save(data, file.filename);
  }

  return (
    <section className="card" aria-labelledby="bulk-download-title" style={{ display: 'grid', gap: 16, maxWidth: 560 }}>
      <h1 id="bulk-download-title">Employee compensation download</h1>
      <dl>
        <dt>File</dt>
        <dd data-testid="download-filename">{file.filename}</dd>
        <dt>Size</dt>
        <dd>{formatNumber(Math.max(1, Math.round(file.sizeBytes / 1024)))} KB</dd>
        <dt>Made</dt>
        <dd>{new Date(file.createdAt).toLocaleString()}</dd>
        <dt>Available until</dt>
        <dd>{new Date(file.expiresAt).toLocaleString()}</dd>
      </dl>
      {problem && <p role="alert">{problem}</p>}
      <div>
        <button type="button" className="primary" onClick={() => void download()} disabled={busy || expired}>
          {busy ? 'Downloading…' : `Download ${file.filename}`}
        </button>
      </div>
      {expired && <p>This file has expired; start the export again from the team view.</p>}
    </section>
  );
}
