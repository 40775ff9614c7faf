import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';

/* The insights agent's tables: sessions (one person's), their messages and the tool-call log. */

export interface AgentSessionRow {
  id: string;
  company_id: string;
  user_id: string;
  title: string;
  titled: boolean | number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface AgentMessageRow {
  id: string;
  company_id: string;
  session_id: string;
  role: 'user' | 'assistant';
  content: string;
  citations: string;
  created_at: string | Date;
}

export interface AgentToolCallRow {
  id: string;
  company_id: string;
  session_id: string;
  message_id: string | null;
  operation_id: string;
  method: 'GET' | 'POST';
  path: string;
  input: string;
  status: number;
  created_at: string | Date;
}

export interface Owner extends CompanyScope {
  userId: string;
}

export async function listSessions(db: Knex, owner: Owner): Promise<(AgentSessionRow & { message_count: number | string })[]> {
  return db('agent_sessions as s')
    .where({ 's.company_id': owner.companyId, 's.user_id': owner.userId })
    .select('s.*')
    .select(db('agent_messages as m').count('*').whereRaw('m.session_id = s.id').as('message_count'))
    .orderBy([
      { column: 's.updated_at', order: 'desc' },
      { column: 's.id', order: 'desc' },
    ]);
}

export async function findSession(db: Knex, owner: Owner, sessionId: string): Promise<AgentSessionRow | undefined> {
  return db<AgentSessionRow>('agent_sessions').where({ id: sessionId, company_id: owner.companyId, user_id: owner.userId }).first();
}

export async function insertSession(db: Knex, owner: Owner, title: string | undefined): Promise<AgentSessionRow> {
  const now = new Date().toISOString();
  const row: AgentSessionRow = {
    id: newId(),
    company_id: owner.companyId,
    user_id: owner.userId,
    title: title ?? 'New conversation',
    titled: title !== undefined,
    created_at: now,
    updated_at: now,
  };
  await db('agent_sessions').insert(row);
  return row;
}

export async function touchSession(db: Knex, session: AgentSessionRow, title?: string): Promise<void> {
  await db('agent_sessions')
    .where({ id: session.id, company_id: session.company_id })
    .update({ updated_at: new Date().toISOString(), ...(title === undefined ? {} : { title }) });
}

export async function deleteSession(db: Knex, session: AgentSessionRow): Promise<void> {
  const key = { company_id: session.company_id, session_id: session.id };
  await db('agent_tool_calls').where(key).delete();
  await db('agent_messages').where(key).delete();
  await db('agent_sessions').where({ id: session.id, company_id: session.company_id }).delete();
}

export async function insertMessage(
  db: Knex,
  session: AgentSessionRow,
  message: { role: 'user' | 'assistant'; content: string; citations: unknown[] },
): Promise<AgentMessageRow> {
  const row: AgentMessageRow = {
    id: newId(),
    company_id: session.company_id,
    session_id: session.id,
    role: message.role,
    content: message.content,
    citations: JSON.stringify(message.citations),
    created_at: new Date().toISOString(),
  };
  await db('agent_messages').insert(row);
  return row;
}

export async function messagesOf(db: Knex, session: AgentSessionRow): Promise<AgentMessageRow[]> {
  return db<AgentMessageRow>('agent_messages').where({ company_id: session.company_id, session_id: session.id }).orderBy('id');
}

export async function insertToolCall(
  db: Knex,
  session: AgentSessionRow,
  call: { operationId: string; method: 'GET' | 'POST'; path: string; input: unknown; status: number },
): Promise<AgentToolCallRow> {
  const row: AgentToolCallRow = {
    id: newId(),
    company_id: session.company_id,
    session_id: session.id,
    message_id: null,
    operation_id: call.operationId,
    method: call.method,
    path: call.path,
    input: JSON.stringify(call.input ?? {}),
    status: call.status,
    created_at: new Date().toISOString(),
  };
  await db('agent_tool_calls').insert(row);
  return row;
}

/** Ties the answer's tool calls (logged as they happened) to the answer once it is saved. */
export async function attachToolCalls(db: Knex, session: AgentSessionRow, messageId: string, callIds: string[]): Promise<void> {
  if (!callIds.length) return;
  await db('agent_tool_calls').where({ company_id: session.company_id, session_id: session.id }).whereIn('id', callIds).update({ message_id: messageId });
}

export async function toolCallsOf(db: Knex, session: AgentSessionRow): Promise<AgentToolCallRow[]> {
  return db<AgentToolCallRow>('agent_tool_calls').where({ company_id: session.company_id, session_id: session.id }).orderBy('id');
}
