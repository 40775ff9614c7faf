import type { components } from '../contract-types.js';
import { isoTimestamp } from '../db/timestamps.js';
import type { AgentMessageRow, AgentSessionRow, AgentToolCallRow } from './store.js';

type Schemas = components['schemas'];

export function presentToolCall(row: AgentToolCallRow): Schemas['AgentToolCall'] {
  return {
    id: row.id,
    operationId: row.operation_id,
    method: row.method,
    path: row.path,
    input: JSON.parse(row.input) as Record<string, unknown>,
    status: row.status,
    createdAt: isoTimestamp(row.created_at),
  };
}

export function presentMessage(row: AgentMessageRow, toolCalls: readonly AgentToolCallRow[]): Schemas['AgentMessage'] {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    citations: JSON.parse(row.citations) as Schemas['AgentCitation'][],
    toolCalls: toolCalls.filter((call) => call.message_id === row.id).map(presentToolCall),
    createdAt: isoTimestamp(row.created_at),
  };
}

export function presentSessionSummary(row: AgentSessionRow & { message_count: number | string }): Schemas['AgentSessionSummary'] {
  return {
    id: row.id,
    title: row.title,
    messageCount: Number(row.message_count),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export function presentSession(row: AgentSessionRow, model: string, messages: readonly AgentMessageRow[], toolCalls: readonly AgentToolCallRow[]): Schemas['AgentSession'] {
  return {
    id: row.id,
    title: row.title,
    model,
    messages: messages.map((message) => presentMessage(message, toolCalls)),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}
