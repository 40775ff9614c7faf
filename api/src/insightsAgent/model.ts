import type { Contract } from '../http/contract.js';
import { type AgentToolName, type ToolCaller, isAgentTool, toolDefinitions } from './tools.js';

/**
 * An OpenAI-compatible chat-completions model with tool calling (`PAYBENCH_AGENT_URL`): the
 * contract's read operations are its tools, every answer is streamed (`stream: true`) and its text
 * passed on as it arrives. A tool call the model asks for goes through the same caller as the
 * built-in interpreter's: over HTTP, as the asker.
 */

export interface ModelSettings {
  url: string;
  model: string;
  key: string | undefined;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

type ToolCallDelta = { index?: number; id?: string; function?: { name?: string; arguments?: string } };
type Chunk = { choices?: { delta?: { content?: string | null; tool_calls?: ToolCallDelta[] }; finish_reason?: string | null }[] };
type Message =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

const SYSTEM_PROMPT = [
  'You are the insights agent of Paybench, a compensation platform. Answer the question about the asker\'s company with numbers you read through the tools only; never invent one.',
  'The tools are the product\'s own API operations, called with the asker\'s permissions: a 403 or 404 means the asker may not see that, so say so plainly and do not guess it.',
  'Money in tool answers is in minor units of its currency (cents for USD). Be brief, and say which operation each number comes from.',
].join(' ');

/** At most this many rounds of tool calls before the model must answer. */
const MAX_ROUNDS = 6;
/** A tool's answer is cut to this many characters before it is given to the model. */
const MAX_TOOL_ANSWER = 24_000;

export const completionsUrl = (url: string): string => (/\/chat\/completions\/?$/.test(url) ? url : `${url.replace(/\/+$/, '')}/chat/completions`);

/** Reads an OpenAI-style SSE body chunk by chunk: each `data:` line's JSON, until `[DONE]`. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Chunk> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      yield JSON.parse(data) as Chunk;
    }
  }
}

export class ModelError extends Error {}

/** Asks the model; streams its answer's text to `onText`; returns the operations whose answers it was given. */
export async function askModel({
  settings,
  contract,
  history,
  question,
  call,
  onText,
}: {
  settings: ModelSettings;
  contract: Contract;
  history: readonly ChatTurn[];
  question: string;
  call: ToolCaller;
  onText: (text: string) => void;
}): Promise<{ cited: AgentToolName[] }> {
  const tools = toolDefinitions(contract);
  const messages: Message[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...history.map((turn) => ({ role: turn.role, content: turn.content }) as Message), { role: 'user', content: question }];
  const cited: AgentToolName[] = [];
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    let response: Response;
    try {
      response = await fetch(completionsUrl(settings.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(settings.key ? { authorization: `Bearer ${settings.key}` } : {}) },
        body: JSON.stringify({ model: settings.model, messages, tools, tool_choice: 'auto', stream: true }),
        signal: AbortSignal.timeout(120_000),
      });
    } catch {
      throw new ModelError('The insights agent\'s model could not be reached.');
    }
    if (!response.ok || !response.body) throw new ModelError(`The insights agent's model answered ${response.status}.`);
    let content = '';
    const calls = new Map<number, { id: string; name: string; arguments: string }>();
    for await (const chunk of chunksOf(response.body)) {
      const delta = chunk.choices?.[0]?.delta;
      if (delta?.content) {
        content += delta.content;
        onText(delta.content);
      }
      for (const part of delta?.tool_calls ?? []) {
        const index = part.index ?? 0;
        const entry = calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (part.id) entry.id = part.id;
        if (part.function?.name) entry.name += part.function.name;
        if (part.function?.arguments) entry.arguments += part.function.arguments;
        calls.set(index, entry);
      }
    }
    if (!calls.size) return { cited };
    const asked = [...calls.values()].map((entry, index) => ({ ...entry, id: entry.id || `call_${round}_${index}` }));
    messages.push({ role: 'assistant', content: content || null, tool_calls: asked.map((entry) => ({ id: entry.id, type: 'function', function: { name: entry.name, arguments: entry.arguments || '{}' } })) });
    for (const entry of asked) {
      let answer: string;
      if (!isAgentTool(entry.name)) {
        answer = JSON.stringify({ error: `There is no tool ${entry.name}.` });
      } else {
        let input: Record<string, unknown> = {};
        try {
          const parsed = JSON.parse(entry.arguments || '{}') as unknown;
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) input = parsed as Record<string, unknown>;
        } catch {
          input = {};
        }
        const result = await call(entry.name, input);
        if (result.status >= 200 && result.status < 300 && !cited.includes(entry.name)) cited.push(entry.name);
        answer = JSON.stringify({ status: result.status, body: result.body ?? null }).slice(0, MAX_TOOL_ANSWER);
      }
      messages.push({ role: 'tool', tool_call_id: entry.id, content: answer });
    }
  }
  throw new ModelError(`The insights agent's model asked for tools ${MAX_ROUNDS} times without answering.`);
}
