import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { TRY_AGAIN, api, errorMessage } from '../../api/client';
import { useToasts } from '../../ui/Toasts';
import type { Schemas } from './common';

const POLL_MS = 1500;

/**
 * Starts the bulk export of everyone's current pay (a background job of the people API), follows
 * it, and opens its download page when the file is ready.
 */
export function ExportPay({ status }: { status: Schemas['TeamStatusFilter'] }) {
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const [job, setJob] = useState<Schemas['BackgroundJob'] | null>(null);
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function follow(jobId: string) {
    const { data, error } = await api.GET('/api/background-jobs/{jobId}', { params: { path: { jobId } } });
    if (error || !data) {
      setJob(null);
      return add('error', errorMessage(error, TRY_AGAIN));
    }
    const current = data.data;
    setJob(current);
    if (current.status === 'succeeded' && current.downloadId) return navigate(`/bulk-download-employee-comp/${current.downloadId}`);
    if (current.status === 'failed' || current.status === 'cancelled') {
      setJob(null);
      return add('error', current.message ?? 'The export did not finish.');
    }
    timer.current = setTimeout(() => void follow(jobId), POLL_MS);
  }

  async function start() {
    const { data, error } = await api.POST('/api/employees/compensation-exports', { body: { format, status } });
    if (error || !data) return add('error', errorMessage(error, TRY_AGAIN));
    setJob(data.data);
    void follow(data.data.id);
  }

  return (
    <div className="team-toolbar">
      <label className="check">
        <span className="visually-hidden">File format</span>
        <select value={format} onChange={(event) => setFormat(event.target.value === 'xlsx' ? 'xlsx' : 'csv')} disabled={job !== null}>
          <option value="csv">CSV</option>
          <option value="xlsx">XLSX</option>
        </select>
      </label>
      <button type="button" onClick={() => void start()} disabled={job !== null}>
        {job ? `Preparing… ${job.progress}%` : 'Export pay'}
      </button>
    </div>
  );
}
