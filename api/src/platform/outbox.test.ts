import type { Knex } from 'knex';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../test/factories.js';
import type { AppDeps } from '../deps.js';
import { emit, subscribe } from './events.js';
import { EventRelay } from './outbox.js';

const log = pino({ level: 'silent' });
const noDeps = () => ({}) as AppDeps;

describe('the domain-event outbox', () => {
  let db: Knex;
  let companyId: string;

  beforeAll(async () => {
    db = await testDb();
    companyId = (await createTestCompany(db)).id;
  });

  it('keeps nothing of a change that rolled back, and delivers a committed one once', async () => {
    const heard: string[] = [];
    const relay = new EventRelay(db, log, [subscribe('view_as.ended', 'test.heard', async (event) => void heard.push(event.subjectId ?? ''))], noDeps);
    const rolledBack = `gone-${Math.random()}`;
    await db
      .transaction(async (trx) => {
        await emit(trx, { name: 'view_as.ended', companyId, actorUserId: null, subjectType: 'view_as_session', subjectId: rolledBack, payload: {} });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    const kept = `kept-${Math.random()}`;
    await db.transaction((trx) => emit(trx, { name: 'view_as.ended', companyId, actorUserId: null, subjectType: 'view_as_session', subjectId: kept, payload: {} }));
    while ((await relay.deliverPending('test-worker')) > 0);
    expect(heard).toContain(kept);
    expect(heard).not.toContain(rolledBack);
    expect(heard.filter((id) => id === kept)).toHaveLength(1);
    expect(await db('audit_events').where({ subject_id: rolledBack })).toHaveLength(0);
    expect(await db('audit_events').where({ subject_id: kept, action: 'view_as.ended' })).toHaveLength(1);
  });

  it("retries a failing subscriber's event later without holding up the next one", async () => {
    const tag = Math.random().toString(36).slice(2);
    let failures = 1;
    const heard: string[] = [];
    const relay = new EventRelay(
      db,
      log,
      [
        subscribe('release_flag.set', 'test.flaky', async (event) => {
          if (event.subjectId === `first-${tag}` && failures-- > 0) throw new Error('the webhook is down');
          heard.push(event.subjectId ?? '');
        }),
      ],
      noDeps,
      50,
    );
    for (const id of [`first-${tag}`, `second-${tag}`]) await emit(db, { name: 'release_flag.set', companyId, actorUserId: null, subjectType: 'release_flag', subjectId: id, payload: { enabled: true } });
    // Other tests' older flag events come first, 50 a pass: pass until this pair is reached.
    const reached = Date.now() + 10_000;
    do await relay.deliverPending('test-worker');
    while (!heard.includes(`second-${tag}`) && Date.now() < reached);
    expect(heard).toContain(`second-${tag}`);
    expect(heard).not.toContain(`first-${tag}`);
    const waiting = await db('domain_events').where({ subject_id: `first-${tag}` }).first();
    expect(waiting).toMatchObject({ attempts: 1, last_error: 'the webhook is down', delivered_at: null });
    const deadline = Date.now() + 10_000;
    while (!heard.includes(`first-${tag}`) && Date.now() < deadline) {
      await relay.deliverPending('test-worker');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(heard.filter((id) => id.endsWith(tag))).toEqual([`second-${tag}`, `first-${tag}`]);
  });
});
