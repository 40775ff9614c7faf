import type { Context } from 'koa';
import { COMPANY_AS_HEADER, VIEW_AS_HEADER } from '../access/authenticate.js';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { requireDataLabFeature } from '../dataLab/subscription.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../kernel/errors.js';
import { EventStreamResponse, type ServiceContext } from '../kernel/operations.js';
import { interpret } from './interpreter.js';
import { ModelError, askModel } from './model.js';
import { presentMessage, presentSession, presentSessionSummary, presentToolCall } from './present.js';
import {
  type AgentSessionRow,
  type AgentToolCallRow,
  type Owner,
  attachToolCalls,
  deleteSession,
  findSession,
  insertMessage,
  insertSession,
  insertToolCall,
  listSessions,
  messagesOf,
  toolCallsOf,
  touchSession,
} from './store.js';
import { AGENT_TOOLS, type AgentToolName, httpToolCaller } from './tools.js';

type Schemas = components['schemas'];

/** The built-in interpreter's answer goes out a word at a time, at this pace, like a model's would. */
const TOKEN_PACE_MS = 12;
/** How much of the conversation a model is given again with a new question. */
const HISTORY_TURNS = 20;

const ownerOf = (caller: Caller): Owner => ({ companyId: companyScope(caller).companyId, userId: caller.userId });

const modelName = (deps: AppDeps): string => (deps.config.agentUrl ? deps.config.agentModel : 'built-in');

async function ownSession(deps: AppDeps, caller: Caller, sessionId: string): Promise<AgentSessionRow> {
  const owner = ownerOf(caller);
  await requireDataLabFeature(deps.db, owner.companyId, 'agent');
  const session = await findSession(deps.db, owner, sessionId);
  if (!session) throw notFound('The agent session could not be found.');
  return session;
}

export async function listAgentSessions(ctx: Pick<ServiceContext, 'deps' | 'caller'>): Promise<Schemas['AgentSessionSummary'][]> {
  const { deps, caller } = ctx;
  const owner = ownerOf(caller);
  await requireDataLabFeature(deps.db, owner.companyId, 'agent');
  return (await listSessions(deps.db, owner)).map(presentSessionSummary);
}

export async function createAgentSession(ctx: Pick<ServiceContext, 'deps' | 'caller'>, title: string | undefined): Promise<Schemas['AgentSession']> {
  const { deps, caller } = ctx;
  const owner = ownerOf(caller);
  await requireDataLabFeature(deps.db, owner.companyId, 'agent');
  const session = await insertSession(deps.db, owner, title?.trim() || undefined);
  return presentSession(session, modelName(deps), [], []);
}

export async function getAgentSession(ctx: Pick<ServiceContext, 'deps' | 'caller'>, sessionId: string): Promise<Schemas['AgentSession']> {
  const { deps, caller } = ctx;
  const session = await ownSession(deps, caller, sessionId);
  return presentSession(session, modelName(deps), await messagesOf(deps.db, session), await toolCallsOf(deps.db, session));
}

export async function deleteAgentSession(ctx: Pick<ServiceContext, 'deps' | 'caller'>, sessionId: string): Promise<{ id: string; deleted: boolean }> {
  const { deps, caller } = ctx;
  const session = await ownSession(deps, caller, sessionId);
  await deleteSession(deps.db, session);
  return { id: session.id, deleted: true };
}

/** This server as the agent reaches it: the address and port the question itself arrived on. */
function ownAddress(koa: Context): string {
  const socket = koa.req.socket;
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}

/** The asker's own credentials, and nothing else of their request: the agent is them, never more. */
function credentialsOf(koa: Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', VIEW_AS_HEADER, COMPANY_AS_HEADER]) {
    const value = koa.get(name);
    if (value) headers[name] = value;
  }
  return headers;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Words with the space or line break after them, so the pieces join back into the text exactly. */
const tokensOf = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

const citationsOf = (cited: readonly AgentToolName[]): Schemas['AgentCitation'][] =>
  [...new Set(cited)].map((operationId) => ({ operationId, label: AGENT_TOOLS[operationId].label, link: AGENT_TOOLS[operationId].link }));

/**
 * Saves the question, then answers it as a stream: every tool call as it is made (logged with the
 * session), the answer's text piece by piece, and the saved answer with its citations.
 */
export async function askInsightsAgent(ctx: Pick<ServiceContext, 'deps' | 'caller'>, koa: Context, sessionId: string, content: string): Promise<EventStreamResponse> {
  const { deps, caller } = ctx;
  const session = await ownSession(deps, caller, sessionId);
  const earlier = await messagesOf(deps.db, session);
  const question = await insertMessage(deps.db, session, { role: 'user', content, citations: [] });
  const title = !session.titled && !earlier.length ? (content.length > 80 ? `${content.slice(0, 79)}…` : content) : undefined;
  await touchSession(deps.db, session, title);
  const history = earlier.slice(-HISTORY_TURNS).map((message) => ({ role: message.role, content: message.content }));
  const baseUrl = ownAddress(koa);
  const credentials = credentialsOf(koa);

  return new EventStreamResponse(async (sink, inCompany) => {
    sink.send('question', presentMessage(question, []));
    const calls: AgentToolCallRow[] = [];
    const call = httpToolCaller(deps.contract, baseUrl, credentials, async (record) => {
      const row = await inCompany((db) => insertToolCall(db, session, record));
      calls.push(row);
      sink.send('tool', presentToolCall(row));
    });
    let text = '';
    let cited: AgentToolName[] = [];
    let failure: string | undefined;
    try {
      if (deps.config.agentUrl) {
        const settings = { url: deps.config.agentUrl, model: deps.config.agentModel, key: deps.config.agentKey };
        const onText = (piece: string) => {
          text += piece;
          sink.send('token', { text: piece });
        };
        const answer = await askModel({ settings, contract: deps.contract, history, question: content, call, onText });
        cited = answer.cited;
      } else {
        const answer = await interpret(content, call);
        cited = answer.cited;
        for (const piece of tokensOf(answer.text)) {
          sink.send('token', { text: piece });
          if (!sink.closed) await pause(TOKEN_PACE_MS);
        }
        text = answer.text;
      }
    } catch (error) {
      if (!(error instanceof ModelError)) deps.log.error({ err: error, sessionId: session.id }, 'the insights agent failed');
      failure = error instanceof ModelError ? error.message : 'The answer could not be finished. Please try again.';
    }
    const answer = await inCompany(async (db) => {
      const row = await insertMessage(db, session, { role: 'assistant', content: text || failure || '', citations: failure ? [] : citationsOf(cited) });
      await attachToolCalls(db, session, row.id, calls.map((entry) => entry.id));
      await touchSession(db, session);
      return row;
    });
    if (failure) sink.send('error', { message: failure });
    else sink.send('done', presentMessage(answer, calls.map((entry) => ({ ...entry, message_id: answer.id }))));
  });
}
