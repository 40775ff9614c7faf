import { useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import { useFollowedJob } from '../jobs/useFollowedJob';
import type { Schemas } from './common';

/**
 * Starts the bulk export of everyone's current pay (a background job of the people API), follows
 * it, and opens its download page when the file is ready.
 */
export function ExportPay({ status }: { status: Schemas['TeamStatusFilter'] }) {
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const [, navigate] = useLocation();
  const { job, start } = useFollowedJob((done) => {
    if (done.downloadId) navigate(`/bulk-download-employee-comp/${done.downloadId}`);
  });
  return (
    <div className="team-toolbar">
      <label className="check">
        <span className="visually-hidden">File format</span>
        <select value={format} onChange={(event) => setFormat(event.target.value === 'xlsx' ? 'xlsx' : 'csv')} disabled={job !== null}>
          <option value="csv">CSV</option>
          <option value="xlsx">XLSX</option>
        </select>
      </label>
      <button type="button" onClick={() => void start(() => api.POST('/api/employees/compensation-exports', { body: { format, status } }))} disabled={job !== null}>
        {job ? `Preparing… ${job.progress}%` : 'Export pay'}
      </button>
    </div>
  );
}
