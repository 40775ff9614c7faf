import { describe, expect, it } from 'vitest';
import { apiModules } from '../src/modules.js';
import { ENTERPRISE_TAGS, demoFlags, flagDefaults, moduleLabel, moduleNames, modulePermissions, segmentFlags } from '../src/access/flags.js';
import { permissionGroups } from '../src/access/permissions.js';
import { builtinRoles } from '../src/access/builtinRoles.js';

/*
 * What the floor reads from the areas' `module.ts` files, against the product's lists written out
 * by hand (spec §5 and §6): the areas declare them, and no central list names an area.
 */

describe('the declarations the areas bring', () => {
  it('gives the release flags their defaults (spec §6), in the order screens list them', () => {
    expect(Object.entries(flagDefaults())).toEqual([
      ['benchmarking', true],
      ['compensation_planning', false],
      ['total_rewards', false],
      ['offer_letters', false],
      ['team_view', false],
      ['bands', false],
      ['market_pricing', false],
      ['budgets', false],
      ['release_job_manager_page', true],
      ['multiplayer', false],
      ['help_desk', false],
      ['pay_equity', false],
    ]);
  });

  it('ties each customer segment to its flags', () => {
    expect(ENTERPRISE_TAGS.map((tag) => [tag, segmentFlags(tag)])).toEqual([
      ['admin_saas_customers', ['compensation_planning', 'total_rewards', 'offer_letters', 'team_view', 'budgets']],
      ['pricing_packaging_customer', ['bands', 'market_pricing']],
    ]);
  });

  it('switches on every built module in the demo, with live updates', () => {
    expect([...demoFlags()].sort()).toEqual(['bands', 'compensation_planning', 'multiplayer', 'offer_letters', 'pay_equity', 'team_view', 'total_rewards']);
  });

  it('names each product module, its flag’s permissions, in order', () => {
    expect(moduleNames().map((name) => [name, moduleLabel(name), modulePermissions(name)])).toEqual([
      ['benchmarking', 'Benchmarking', ['benchmarking']],
      ['integrations', 'Integrations', ['integrations']],
      ['settings', 'Settings', ['companySettings']],
      ['compplanning', 'Compensation planning', ['compensationPlanning']],
      ['rewardLetters', 'Reward letters', ['compensationPlanning']],
      ['teamview', 'The team view', ['team']],
      ['bands', 'Salary bands', ['bands']],
      ['visualOfferLetter', 'Offer letters', ['offers']],
      ['totalRewards', 'Total rewards', ['totalRewards']],
      ['payEquity', 'Pay equity and pay transparency', ['payEquity']],
    ]);
  });

  it('groups the permissions as the roles screen shows them', () => {
    expect(permissionGroups().map((group) => [group.id, group.permissions.map((permission) => permission.name)])).toEqual([
      ['benchmarking', ['benchmarking']],
      ['people', ['team', 'employeeCompensation', 'demographics']],
      ['pay', ['bands', 'compensationPlanning', 'offers', 'postings', 'totalRewards', 'dataLab', 'payEquity']],
      ['administration', ['users', 'roles', 'companySettings', 'integrations']],
    ]);
  });

  it('gives the admin every permission to edit, and the employee only their own statement', () => {
    const roles = new Map(builtinRoles().map((role) => [role.key, role.permissions]));
    expect(Object.values(roles.get('admin') ?? {}).every((grants) => grants.length === 1 && grants[0]?.authority === 'edit' && grants[0].scope === 'all')).toBe(true);
    expect(Object.keys(roles.get('admin') ?? {})).toHaveLength(15);
    expect(roles.get('employee')).toEqual({ totalRewards: [{ authority: 'view', scope: 'self' }] });
    expect(roles.get('people_manager')).toEqual({
      benchmarking: [{ authority: 'view', scope: 'all' }],
      team: [{ authority: 'view', scope: 'reports' }],
      employeeCompensation: [{ authority: 'view', scope: 'reports' }],
      compensationPlanning: [{ authority: 'edit', scope: 'reports' }],
      offers: [{ authority: 'view', scope: 'all' }],
      totalRewards: [{ authority: 'view', scope: 'self' }],
    });
  });

  it('lets each area declare the realtime events it sends, once', () => {
    const events = apiModules.flatMap((module) => (module.realtimeEvents ?? []).map((event) => `${module.area}: ${event}`));
    expect(events.sort()).toEqual(['jobs: emitBackgroundJobStatusUpdate', 'meritCycles: emitMeritCycleEmployeesUpdate', 'offers: emitOfferUpdate']);
  });
});
