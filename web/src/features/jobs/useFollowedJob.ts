import { useEffect, useRef, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { TRY_AGAIN, api, errorMessage } from '../../api/client';
import { invalidate } from '../../api/queries';
import { useToasts } from '../../ui/Toasts';

type BackgroundJob = components['schemas']['BackgroundJob'];

/** What starting a job answers: the job (202), or the failure. */
interface Started {
  data?: { data: BackgroundJob };
  error?: unknown;
}

const POLL_MS = 1500;

/**
 * A background job started from a screen (an export, a bulk PDF) and followed until it ends: its
 * progress while it runs, a toast in the server's words when it fails or is cancelled, the jobs
 * list asked again, and `onSucceeded` with the finished job (its `downloadId`).
 */
export function useFollowedJob(onSucceeded?: (job: BackgroundJob) => void) {
  const { add } = useToasts();
  const [job, setJob] = useState<BackgroundJob | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const succeeded = useRef(onSucceeded);
  succeeded.current = onSucceeded;
  useEffect(() => () => clearTimeout(timer.current), []);

  async function follow(jobId: string): Promise<void> {
    const { data, error } = await api.GET('/api/background-jobs/{jobId}', { params: { path: { jobId } } });
    if (error || !data) {
      setJob(null);
      return add('error', errorMessage(error, TRY_AGAIN));
    }
    setJob(data.data);
    if (data.data.status === 'failed' || data.data.status === 'cancelled') {
      setJob(null);
      return add('error', data.data.message ?? 'The export did not finish.');
    }
    if (data.data.status !== 'succeeded') {
      timer.current = setTimeout(() => void follow(jobId), POLL_MS);
      return;
    }
    await invalidate('/api/me/background-jobs');
    succeeded.current?.(data.data);
  }

  async function start(request: () => Promise<Started>): Promise<void> {
    const { data, error } = await request();
    if (error || !data) return add('error', errorMessage(error, TRY_AGAIN));
    setJob(data.data);
    await invalidate('/api/me/background-jobs');
    void follow(data.data.id);
  }

  return { job, running: job !== null && job.status !== 'succeeded', start };
}
