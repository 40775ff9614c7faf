import { MessageCircleQuestion } from 'lucide-react';
import { type ReactNode } from 'react';
import { Link } from 'wouter';
import { errorMessage } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { Empty } from '../../ui/States';
import { can } from '../settings/permissions';

// Who may run pulse surveys, and what the screens show to a company without the data lab.

export const HOME = '/paybench-data-lab/pulse-surveys';

/** What stands in the way of the screens: a role without the data lab, or a subscription without pulse surveys. */
export function useAccess(edit = false): { allowed: boolean; blocked: ReactNode } {
  const person = usePerson().data?.data;
  if (!person) return { allowed: false, blocked: null };
  if (can(person, 'dataLab', edit ? 'edit' : 'view')) return { allowed: true, blocked: null };
  return {
    allowed: false,
    blocked: (
      <Empty title={edit ? 'Your role does not include running pulse surveys' : 'Your role does not include the data lab'} icon={MessageCircleQuestion}>
        {edit ? 'Creating and closing pulse surveys needs the data lab permission (edit).' : 'Pulse-survey results are part of the data lab.'} An admin can add it to your role.
      </Empty>
    ),
  };
}

export function NotSubscribed({ error }: { error: unknown }) {
  return (
    <Empty title="Pulse surveys are not switched on" icon={MessageCircleQuestion} action={<Link href="/paybench-data-lab" className="button">Back to the data lab</Link>}>
      {errorMessage(error)} Paybench support adds them to the subscription.
    </Empty>
  );
}

export const Crumb = () => <Link href="/paybench-data-lab">Data lab</Link>;
