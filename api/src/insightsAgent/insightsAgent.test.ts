import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import type { components } from '../contract-types.js';
import { saveDataLabFeatures } from '../dataLab/subscription.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type StreamEvent = { event: string; data: unknown };

const USD = (major: number) => ({ amount: major * 100, currency: 'USD' });

/** Reads an event stream to its end; `chunks` counts the pieces the body arrived in before the last event. */
async function ask(user: TestUser, sessionId: string, content: string, base = baseUrl()): Promise<{ status: number; type: string | null; events: StreamEvent[]; chunks: number; tokensBeforeEnd: number }> {
  const response = await fetch(`${base}/api/data-lab/agent/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: { ...bearer(user), 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  const type = response.headers.get('content-type');
  if (!response.body || !type?.startsWith('text/event-stream')) return { status: response.status, type, events: [{ event: 'body', data: await response.json() }], chunks: 0, tokensBeforeEnd: 0 };
  const decoder = new TextDecoder();
  const events: StreamEvent[] = [];
  let buffered = '';
  let chunks = 0;
  let tokensBeforeEnd = 0;
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
    }
    if (!events.some((e) => e.event === 'done' || e.event === 'error')) {
      chunks += 1;
      tokensBeforeEnd = events.filter((e) => e.event === 'token').length;
    }
  }
  return { status: response.status, type, events, chunks, tokensBeforeEnd };
}

const answerOf = (events: StreamEvent[]): Schemas['AgentMessage'] => {
  const done = events.find((e) => e.event === 'done');
  if (!done) throw new Error(`no done event in ${JSON.stringify(events)}`);
  return done.data as Schemas['AgentMessage'];
};
const streamedText = (events: StreamEvent[]): string => events.filter((e) => e.event === 'token').map((e) => (e.data as { text: string }).text).join('');

describe('the insights agent', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let admin: TestUser;
  let analyst: TestUser;
  let planner: TestUser;
  let employee: TestUser;
  let teamOnly: TestUser;

  const call = <T>(user: TestUser, path: string, init: RequestInit & { json?: unknown; ifMatch?: number } = {}) => {
    const { ifMatch, ...rest } = init;
    return request<T>(path, { ...rest, headers: { ...bearer(user), ...(ifMatch !== undefined ? { 'If-Match': `"${ifMatch}"` } : {}) } });
  };
  const newSession = async (user: TestUser): Promise<string> => {
    const reply = await call<Data<Schemas['AgentSession']>>(user, '/api/data-lab/agent/sessions', { method: 'POST', json: {} });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data.id;
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Agent Co');
    other = await createTestCompany(db, 'Other Agent Co');
    const user = (key: string): TestUser => {
      const found = company.users[key];
      if (!found) throw new Error(`no ${key} in the test company`);
      return found;
    };
    [admin, analyst, planner, employee] = [user('admin'), user('analyst'), user('compensation_planner'), user('employee')];
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    for (const flag of ['team_view', 'bands']) {
      expect((await call(support, `/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
    }
    await saveDataLabFeatures(db, company.id, { insights: false, agent: true, pulseSurveys: false }, support.id);

    // Someone who may use the data lab and see the team, but neither pay nor market data.
    const role = await call<Data<Schemas['Role']>>(admin, '/api/roles', {
      method: 'POST',
      json: { name: 'Data lab, no pay', permissions: { dataLab: [{ authority: 'view', scope: 'all' }], team: [{ authority: 'view', scope: 'all' }] } },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    teamOnly = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });

    // Three engineers at P3 in New York, two sellers at P2: 545,000 USD of base in all.
    const people: [string, string, string, string, number][] = [
      ['Ana', 'Engineering', 'software_engineering', 'p3', 150_000],
      ['Ben', 'Engineering', 'software_engineering', 'p3', 130_000],
      ['Cai', 'Engineering', 'software_engineering', 'p3', 110_000],
      ['Dee', 'Sales', 'sales', 'p2', 60_000],
      ['Eve', 'Sales', 'sales', 'p2', 95_000],
    ];
    for (const [firstName, department, jobFamilyId, levelId, base] of people) {
      const id = await insertEmployee(db, company.id, { firstName, lastName: 'Agent', department, jobFamilyId, levelId, locationId: 'us_new_york', title: department === 'Sales' ? 'Account Executive' : 'Software Engineer' });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: base * 100, effectiveDate: '2024-01-01' }]);
    }

    // The live band of Sales P2 in the catch-all zone: 70k / 80k / 90k.
    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'sales', levelId: 'p2' } })).status).toBe(201);
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Agent bands', currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const band = built.body.data.bandSet.bands.find((b) => b.levelId === 'p2');
    if (!band) throw new Error('no P2 band built');
    expect((await call(admin, `/api/bands/band-sets/${set.body.data.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: USD(70_000), mid: USD(80_000), max: USD(90_000) } })).status).toBe(200);
    const current = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${set.body.data.id}`);
    expect((await call(admin, `/api/bands/band-sets/${set.body.data.id}/publish`, { method: 'POST', ifMatch: current.body.data.version, json: {} })).status).toBe(200);
  });

  it('counts employees in a department, citing the team overview', async () => {
    const session = await newSession(admin);
    const reply = await ask(admin, session, 'How many employees are in Engineering?');
    expect(reply.status).toBe(200);
    const answer = answerOf(reply.events);
    expect(answer.content).toBe('There are 3 active employees in Engineering that you can see.');
    expect(streamedText(reply.events)).toBe(answer.content);
    expect(answer.citations).toEqual([{ operationId: 'getTeamOverview', label: 'Headcount and payroll in your reach (team view)', link: '/team' }]);
    expect(answer.toolCalls.map((c) => [c.operationId, c.method, c.status])).toEqual([['getTeamOverview', 'GET', 200]]);
    expect(answer.toolCalls[0]?.input).toEqual({ status: 'active' });
  });

  it('costs a merit budget as the sum of base × the percentage', async () => {
    const session = await newSession(admin);
    const whole = answerOf((await ask(admin, session, 'What would a 4% merit budget cost?')).events);
    // 4% of 545,000.00 = 21,800.00
    expect(whole.content).toBe('A 4% merit budget would cost $21,800.00: 4% of $545,000.00 of annual base salary across the 5 active employees with a base salary in your reach.');
    expect(whole.citations.map((c) => c.operationId)).toEqual(['getTeamOverview']);
    const sales = answerOf((await ask(admin, session, 'What would a 3.5% merit budget cost in Sales?')).events);
    // 3.5% of 155,000.00 = 5,425.00
    expect(sales.content).toBe(
      'A 3.5% merit budget for Sales would cost $5,425.00 on $155,000.00 of annual base (2 employees paid in USD). That is 3.5% of the base salary of every active employee in Sales you can see who has one.',
    );
    expect(sales.citations.map((c) => [c.operationId, c.link])).toEqual([
      ['getTeamOverview', '/team'],
      ['getTeamEmployeeTable', '/team/employees'],
    ]);
  });

  it('names who is below their band', async () => {
    const session = await newSession(analyst);
    const answer = answerOf((await ask(analyst, session, 'Who is below band in Sales?')).events);
    // Dee: 60,000 against 70,000 / 80,000 / 90,000 → compa-ratio 0.75; Eve is above, not below.
    expect(answer.content).toBe('1 employee of 2 with a band position in Sales is below their band:\n- Dee Agent, Account Executive: $60,000, below the band (minimum $70,000, compa-ratio 0.75)');
    expect(answer.citations.map((c) => c.operationId)).toEqual(['getTeamOverview', 'getTeamEmployeeTable']);
  });

  it('compares pay with the market through the data explorer, and refuses it to a role without market data', async () => {
    const question = 'How does our P3 engineering pay compare to the market in New York?';
    const market = await call<Data<Schemas['BenchmarkResult']>>(analyst, '/api/benchmarking/market-data', {
      method: 'POST',
      json: {
        compensationTypes: ['base'],
        marketFilters: [{ locations: ['us_new_york'], companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'] }],
        jobFamilies: ['software_engineering'],
        levels: [{ type: 'level', id: 'p3' }],
        percentiles: [25, 50, 75],
      },
    });
    expect(market.status).toBe(200);

    // Positive control: the analyst may read market data and pay.
    const session = await newSession(analyst);
    const reply = await ask(analyst, session, question);
    const answer = answerOf(reply.events);
    expect(answer.toolCalls.map((c) => [c.operationId, c.status])).toEqual([
      ['queryMarketData', 200],
      ['getTeamEmployeeTable', 200],
    ]);
    const cell = market.body.data.cells[0];
    if (cell?.status === 'published') {
      const p50 = cell.percentiles?.find((p) => p.percentile === 50)?.value ?? 0;
      expect(answer.content).toContain(`p50 $${Math.round(p50).toLocaleString('en-US')}`);
    } else {
      expect(answer.content).toContain('The market withholds base salary for Software Engineering P3 in New York City');
    }
    // Ana, Ben and Cai: the median of 150,000, 130,000 and 110,000.
    expect(answer.content).toContain('Your 3 employees there are paid a median base of $130,000.');
    expect(answer.citations.map((c) => [c.operationId, c.link])).toEqual([
      ['queryMarketData', '/benchmarkingsurvey/data-explorer'],
      ['getTeamEmployeeTable', '/team/employees'],
    ]);

    // The same question from someone without benchmarking: the operation says 403, and so does the answer.
    const refused = answerOf((await ask(teamOnly, await newSession(teamOnly), question)).events);
    expect(refused.toolCalls.map((c) => [c.operationId, c.status])).toEqual([['queryMarketData', 403]]);
    expect(refused.content).toBe('You cannot see market data for Software Engineering P3 in New York City: This needs the benchmarking permission (view). I only see what you may see.');
    expect(refused.citations).toEqual([]);
  });

  it('does not show pay to someone who may not see it', async () => {
    const budget = answerOf((await ask(teamOnly, await newSession(teamOnly), 'What would a 4% merit budget cost?')).events);
    expect(budget.content).toBe('You can see 5 active employees, but not their pay, so I cannot cost a merit budget.');
    const band = answerOf((await ask(teamOnly, await newSession(teamOnly), 'Who is below band in Sales?')).events);
    expect(band.content).toBe('You can see 2 active employees in Sales, but not their pay, so I cannot say where they sit in their bands.');
    expect(band.content).not.toContain('Dee');
  });

  it('says plainly what it cannot answer', async () => {
    const answer = answerOf((await ask(admin, await newSession(admin), 'Write me a poem about equity.')).events);
    expect(answer.content).toMatch(/^I cannot answer that with the built-in interpreter\. I can answer: how pay at a job family/);
    expect(answer.toolCalls).toEqual([]);
    expect(answer.citations).toEqual([]);
  });

  it('streams the answer in pieces before it ends', async () => {
    const reply = await ask(admin, await newSession(admin), 'What would a 4% merit budget cost?');
    expect(reply.type, JSON.stringify(reply.events)).toMatch(/^text\/event-stream/);
    expect(reply.events[0]?.event).toBe('question');
    expect(reply.events.at(-1)?.event).toBe('done');
    // The answer has 25 words; several arrive, in several reads, before the done event.
    expect(reply.chunks).toBeGreaterThanOrEqual(3);
    expect(reply.tokensBeforeEnd).toBeGreaterThanOrEqual(5);
    const toolEvent = reply.events.find((e) => e.event === 'tool')?.data as Schemas['AgentToolCall'];
    expect([toolEvent.operationId, toolEvent.status]).toEqual(['getTeamOverview', 200]);
  });

  it('keeps sessions with their messages and tool calls, for their owner only', async () => {
    const session = await newSession(planner);
    await ask(planner, session, 'How many employees are in Sales?');
    const read = await call<Data<Schemas['AgentSession']>>(planner, `/api/data-lab/agent/sessions/${session}`);
    expect(read.status).toBe(200);
    expect(read.body.data.title).toBe('How many employees are in Sales?');
    expect(read.body.data.model).toBe('built-in');
    expect(read.body.data.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'How many employees are in Sales?'],
      ['assistant', 'There are 2 active employees in Sales that you can see.'],
    ]);
    expect(read.body.data.messages[1]?.toolCalls.map((c) => [c.operationId, c.path, c.status])).toEqual([['getTeamOverview', '/api/team/employees/overview?status=active', 200]]);
    const list = await call<Data<Schemas['AgentSessionSummary'][]>>(planner, '/api/data-lab/agent/sessions');
    expect(list.body.data.find((s) => s.id === session)?.messageCount).toBe(2);

    // Someone else in the company, and another company, see nothing of it.
    expect((await call(admin, `/api/data-lab/agent/sessions/${session}`)).status).toBe(404);
    expect((await call<Data<Schemas['AgentSessionSummary'][]>>(admin, '/api/data-lab/agent/sessions')).body.data.some((s) => s.id === session)).toBe(false);
    const foreign = other.users.admin as TestUser;
    const refused = await call<ErrorBody>(foreign, `/api/data-lab/agent/sessions/${session}`);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe("The insights agent is not part of Other Agent Co's data-lab subscription.");
    expect((await ask(admin, session, 'How many?')).status).toBe(404);

    // People without the data lab are refused before anything else.
    expect((await call<ErrorBody>(employee, '/api/data-lab/agent/sessions')).status).toBe(403);

    expect((await call(planner, `/api/data-lab/agent/sessions/${session}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(planner, `/api/data-lab/agent/sessions/${session}`)).status).toBe(404);
  });
});

describe('the insights agent with an OpenAI-compatible model', () => {
  let fake: Server;
  const received: { messages: { role: string; content: string | null; tool_calls?: unknown[] }[]; tools: { function: { name: string; parameters: { properties?: Record<string, unknown> } } }[]; stream: boolean; model: string }[] = [];
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let base: string;
  let asker: TestUser;

  const sse = (chunks: unknown[]): string => `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;

  beforeAll(async () => {
    // The fake model: first it asks for the team overview, then it answers from what the tool said.
    fake = createServer((req, res) => {
      let raw = '';
      req.on('data', (piece: Buffer) => (raw += piece.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as (typeof received)[number];
        received.push(body);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const toolAnswer = body.messages.find((m) => m.role === 'tool');
        if (!toolAnswer) {
          res.end(
            sse([
              { choices: [{ delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'getTeamOverview', arguments: '' } }] } }] },
              { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{"status":' } }] } }] },
              { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"active"}' } }] }, finish_reason: 'tool_calls' }] },
            ]),
          );
          return;
        }
        const headcount = (JSON.parse(toolAnswer.content ?? '{}') as { body: { data: { headcount: number } } }).body.data.headcount;
        res.end(sse(['You have ', `${headcount} active `, 'employees ', '(getTeamOverview).'].map((content) => ({ choices: [{ delta: { content } }] }))));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    server = await startTestServer({ PAYBENCH_AGENT_URL: `http://127.0.0.1:${port}/v1`, PAYBENCH_AGENT_MODEL: 'fake-model', PAYBENCH_SEED_DEMO: 'false' });
    base = server.url;
    const db = await testDb(server.env);
    const company = await createTestCompany(db, 'Model Co');
    asker = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/team_view`, { base, method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    await saveDataLabFeatures(db, company.id, { insights: false, agent: true, pulseSurveys: false }, support.id);
    for (const name of ['Uma', 'Vic']) await insertEmployee(db, company.id, { firstName: name, lastName: 'Model' });
    await db.destroy();
  });

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => fake?.close(resolve));
  });

  it('calls the tool the model asks for as the asker, then streams the model\'s answer with its citation', async () => {
    const created = await request<Data<Schemas['AgentSession']>>('/api/data-lab/agent/sessions', { base, method: 'POST', headers: bearer(asker), json: { title: 'Headcount' } });
    expect(created.status).toBe(201);
    expect(created.body.data.model).toBe('fake-model');
    const reply = await ask(asker, created.body.data.id, 'How many people work here?', base);
    expect(reply.status).toBe(200);
    expect(reply.events.filter((e) => e.event === 'token').map((e) => (e.data as { text: string }).text)).toEqual(['You have ', '2 active ', 'employees ', '(getTeamOverview).']);
    const answer = answerOf(reply.events);
    expect(answer.content).toBe('You have 2 active employees (getTeamOverview).');
    expect(answer.citations).toEqual([{ operationId: 'getTeamOverview', label: 'Headcount and payroll in your reach (team view)', link: '/team' }]);
    expect(answer.toolCalls.map((c) => [c.operationId, c.path, c.status])).toEqual([['getTeamOverview', '/api/team/employees/overview?status=active', 200]]);

    // What the model was told: the contract's operations as tools, streaming, then the tool's answer.
    expect(received).toHaveLength(2);
    expect(received[0]?.stream).toBe(true);
    expect(received[0]?.model).toBe('fake-model');
    const overview = received[0]?.tools.find((tool) => tool.function.name === 'getTeamOverview');
    expect(overview?.function.parameters.properties?.status).toMatchObject({ enum: ['active', 'terminated', 'all'] });
    expect(received[0]?.tools.map((tool) => tool.function.name)).toContain('queryMarketData');
    expect(received[1]?.messages.at(-1)).toMatchObject({ role: 'tool' });
  });
});
