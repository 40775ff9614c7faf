import { useParams } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { saveBlob } from '../../ui/files';
import { FailureScreen } from '../../ui/Screens';
import { FullSizeSpinner } from '../../ui/Spinner';
import './downloads.css';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}


/** What each download route calls its file, and where a person goes back to make it again. */
const KINDS = {
  download: { title: 'Your download', back: '/home', again: 'run the export again' },
  compensationReport: { title: 'Compensation report', back: '/home', again: 'run the export again' },
  employeeComp: { title: 'Employee compensation download', back: '/team', again: 'start the export again from the team view' },
} as const;

/** /downloads/:downloadId (and the report and employee-comp download routes): what the file is, and the file itself. */
export function DownloadScreen({ kind = 'download' }: { kind?: keyof typeof KINDS }) {
  const { title, back, again } = KINDS[kind];
  const { downloadId = '' } = useParams<{ downloadId: string }>();
  const metadata = useQuery('/api/downloads/{downloadId}/metadata', { params: { path: { downloadId } } });
  const { run, busy, problem, setProblem } = useMutation({ failure: 'problem' });
  if (metadata.error) {
    const status = (metadata.error as { status?: number }).status;
    return status === 404 ? (
      <FailureScreen title="This download is not available" description="The file does not exist, has expired, or is not yours to download." actions={<a href={back}>Back</a>} />
    ) : (
      <FailureScreen title="Something went wrong" description={errorMessage(metadata.error)} />
    );
  }
  const file = metadata.data?.data;
  if (!file) return <FullSizeSpinner loading label="Loading the download" />;

  async function download() {
    if (!file) return;
    setProblem(null);
    const result = await run(() => api.GET('/api/downloads/{downloadId}', { params: { path: { downloadId } }, parseAs: 'blob' }));
    if (result.ok) saveBlob(result.data, file.filename);
  }

  const expired = new Date(file.expiresAt).getTime() < Date.now();
  return (
    <section className="card download" aria-labelledby="download-title">
      <h1 id="download-title">{title}</h1>
      <dl>
        <dt>File</dt>
        <dd data-testid="download-filename">{file.filename}</dd>
        <dt>Size</dt>
        <dd>{size(file.sizeBytes)}</dd>
        <dt>Made</dt>
        <dd>{new Date(file.createdAt).toLocaleString()}</dd>
        <dt>Available until</dt>
        <dd>{new Date(file.expiresAt).toLocaleString()}</dd>
      </dl>
      {problem && <p role="alert">{problem.message}</p>}
      <div className="actions">
        <button type="button" className="primary" onClick={() => void download()} disabled={busy || expired}>
          {busy ? 'Downloading…' : `Download ${file.filename}`}
        </button>
      </div>
      {expired && <p className="muted">This file has expired; {again}.</p>}
    </section>
  );
}
