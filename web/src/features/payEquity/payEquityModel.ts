import type { components } from '../../../../openapi.d.ts';
import { usePerson } from '../../app/person';

// What the pay-equity screens share: the report's records, percentages and what the person may do.

export type Report = components['schemas']['PayEquityReport'];

export type Adjusted = components['schemas']['PayEquityAdjustedGap'];

export type Evaluation = components['schemas']['PayEquityEvaluation'];

export type Assessment = components['schemas']['PayEquityAssessment'];

export type Scores = components['schemas']['PayEquityScores'];

export const percent = (value: number | null | undefined): string => (value === null || value === undefined ? 'withheld' : `${value.toFixed(2)} %`);

export function useCan() {
  const grants = usePerson().data?.data?.permissionsV3 ?? {};
  return { edit: (grants.payEquity ?? []).some((grant) => grant.authority === 'edit'), demographics: (grants.demographics ?? []).length > 0 };
}
