import { describe, expect, it } from 'vitest';
import { mappingProblems, missingRequired, suggestMapping } from './mapping.js';

describe('column mapping suggestions', () => {
  it('matches the headers HR systems write, exactly or nearly, each column once', () => {
    const columns = ['Emp ID', 'Legal First Name', 'Surname', 'E-mail', 'Dept', 'Cost Centre', 'Reports To', 'Hire Date', 'Annual Base Salary (USD)', 'Target Bonus %', 'Notes', 'Favourite Colour'];
    expect(suggestMapping(columns, 'employees')).toEqual({
      employeeId: 'Emp ID',
      firstName: 'Legal First Name',
      lastName: 'Surname',
      email: 'E-mail',
      department: 'Dept',
      managerEmployeeId: 'Reports To',
      startDate: 'Hire Date',
      baseSalary: 'Annual Base Salary (USD)',
      bonusTargetPercent: 'Target Bonus %',
    });
  });

  it('reads camelCase and snake_case headers', () => {
    expect(suggestMapping(['employee_number', 'firstName', 'LAST_NAME', 'grant_id'], 'employees')).toEqual({ employeeId: 'employee_number', firstName: 'firstName', lastName: 'LAST_NAME' });
  });

  it('maps cap-table exports to grant fields', () => {
    const mapping = suggestMapping(['Stakeholder ID', 'Security ID', 'Security Type', 'Quantity', 'Issue Date', 'Strike Price', 'Vesting Commencement Date'], 'equityGrants');
    expect(mapping).toEqual({ grantId: 'Security ID', employeeId: 'Stakeholder ID', grantType: 'Security Type', shares: 'Quantity', grantDate: 'Issue Date', exercisePrice: 'Strike Price', vestingStartDate: 'Vesting Commencement Date' });
    expect(missingRequired(mapping, 'equityGrants')).toEqual([]);
  });

  it('names what a mapping gets wrong', () => {
    expect(mappingProblems({ employeeId: 'ID', firstName: 'ID', shares: 'Qty' }, 'employees', ['ID', 'Name'])).toEqual([
      { field: 'mapping.firstName', message: 'column "ID" is already mapped to employeeId' },
      { field: 'mapping.shares', message: 'is not a field of employee imports' },
      { field: 'mapping.lastName', message: 'is required: name the column that holds it' },
    ]);
  });
});
