import { EmployeeSearch } from '../../ui/EmployeeSearch';

/** Whose statement to preview: the one employee search field, over the employees the person may preview. */
export function EmployeePicker({ selected, onSelect, label = 'Preview as' }: { selected: string | null; onSelect: (employeeId: string, name: string) => void; label?: string }) {
  return <EmployeeSearch label={label} source="statementPreview" selected={selected} onPick={(employee) => onSelect(employee.id, employee.name)} />;
}
