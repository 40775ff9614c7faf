import { useEffect } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { usePostQuery } from '../../api/queries';
import { onJobStatusUpdate } from '../../realtime/Realtime';

export type BackgroundJob = components['schemas']['BackgroundJob'];

const WITHIN_DAYS = 7;
const POLL_MS = 5 * 60 * 1000;
const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * The person's background jobs of the last 7 days (spec §7): refetched every 5 minutes and on
 * every emitBackgroundJobStatusUpdate. Progress events patch the list at once; a job that
 * finishes (or one not in the list yet) is read again from the server.
 */
export function useBackgroundJobs(enabled = true) {
  const jobs = usePostQuery('/api/me/background-jobs', enabled ? { withinDays: WITHIN_DAYS } : null, { refreshInterval: POLL_MS });
  const { mutate } = jobs;
  const list = jobs.data?.data;
  useEffect(
    () =>
      onJobStatusUpdate((update) => {
        void mutate(
          (answer) => {
            if (!answer) return answer;
            return {
              ...answer,
              data: answer.data.map((job) =>
                job.id === update.jobId
                  ? { ...job, status: (update.status as BackgroundJob['status'] | undefined) ?? job.status, progress: update.progress ?? job.progress }
                  : job,
              ),
            };
          },
          { revalidate: false },
        );
        const known = list?.some((job) => job.id === update.jobId) ?? false;
        if (!known || FINISHED.has(update.status ?? '')) void mutate();
      }),
    [mutate, list],
  );
  return { data: list, error: jobs.error, isLoading: jobs.isLoading };
}

export const JOB_TITLES: Record<string, string> = {
  marketDataExport: 'Market data export',
  benchmarkExport: 'Market data export',
  marketDataReport: 'Market data report',
  usersExport: 'Users export',
  employeeCompensationExport: 'Employee pay export',
  buildMarketRelease: 'Market release build',
  bandsImport: 'Salary bands import',
  bandsExport: 'Salary bands export',
  dataLabInsights: 'Data-lab insights',
  dataLabNightlyInsights: 'Nightly data-lab insights',
  documentBulkPdf: 'Documents (PDF archive)',
  documentPdf: 'Document PDF',
  integrationScheduledSync: 'Scheduled sync',
  integrationSync: 'Sync',
  meritCycleWindowClosing: 'Planning window closing notice',
  meritCyclePayrollExport: 'Merit cycle payroll export',
  offersExport: 'Offers export',
  peopleImport: 'People-data import',
  pulseSurveyClosing: 'Pulse survey closing',
  rewardLettersRelease: 'Reward letters release',
  payEquityAssessmentReminder: 'Joint pay assessment reminder',
  rewardLettersRemind: 'Reward letter reminders',
  rewardLettersRender: 'Reward letters',
  surveyImport: 'Survey import',
  totalRewardsIssue: 'Total rewards statements',
};

/** A job's name as people read it: its title, else its kind's key in words ("someNewJob" → "Some new job"). */
export function jobTitle(type: string): string {
  const known = JOB_TITLES[type];
  if (known) return known;
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : 'A background job';
}
