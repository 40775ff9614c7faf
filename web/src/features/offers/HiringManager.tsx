import { X } from 'lucide-react';
import { EmployeeSearch, type PickedEmployee } from '../../ui/EmployeeSearch';

/** The hiring manager: an active employee, found by name, e-mail or number; the hire's manager from their first day. */
export function HiringManagerField({ manager, onChange }: { manager: PickedEmployee | null; onChange: (manager: PickedEmployee | null) => void }) {
  return (
    <div className="offer-manager">
      {manager && (
        <p>
          <strong data-testid="hiring-manager">{manager.name}</strong>{' '}
          <button type="button" className="ghost small" onClick={() => onChange(null)}>
            <X size={14} aria-hidden="true" /> Remove
          </button>
        </p>
      )}
      <EmployeeSearch label="Hiring manager (the hire reports to them)" activeOnly onPick={onChange} />
    </div>
  );
}
