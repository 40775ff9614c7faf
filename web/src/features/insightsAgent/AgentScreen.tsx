import { Bot, MessageSquarePlus, Send, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, statusOf, useQuery } from '../../api/client';
import { readEventStream } from '../../api/eventStream';
import { invalidate } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge } from '../../ui/Badge';
import { FormProblem, fieldProblems } from '../../ui/FormProblem';
import { PageHeader, Section } from '../../ui/Page';
import { FailureScreen } from '../../ui/Screens';
import { Empty, ErrorState, Loaded } from '../../ui/States';
import { can } from '../settings/permissions';
import './insightsAgent.css';

type Schemas = components['schemas'];
type Message = Schemas['AgentMessage'];
type ToolCall = Schemas['AgentToolCall'];

const SUGGESTIONS = [
  'How does our P3 engineering pay compare to the market in New York?',
  'Who is below band in Sales?',
  'What would a 4% merit budget cost?',
  'How many employees are in Engineering?',
];

/** The answer being streamed: the question, the tool calls so far and the text so far. */
interface Pending {
  question: string;
  text: string;
  toolCalls: ToolCall[];
}

const when = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ToolCalls({ calls }: { calls: readonly ToolCall[] }) {
  if (!calls.length) return null;
  return (
    <details className="agent-tools">
      <summary>
        {calls.length} {calls.length === 1 ? 'operation' : 'operations'} called as you
      </summary>
      <ul>
        {calls.map((call) => (
          <li key={call.id}>
            <code>{call.operationId}</code> <Badge tone={call.status >= 200 && call.status < 300 ? 'success' : 'danger'}>{call.status || 'unreachable'}</Badge>{' '}
            <span className="muted">
              {call.method} {call.path}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Answer({ message }: { message: Message }) {
  return (
    <li className={`agent-message ${message.role}`}>
      <p className="agent-who">{message.role === 'user' ? 'You' : 'Insights agent'}</p>
      <p className="agent-text">{message.content}</p>
      {message.citations.length > 0 && (
        <ul className="agent-citations" aria-label="Sources">
          {message.citations.map((citation) => (
            <li key={citation.operationId}>
              Source: <code>{citation.operationId}</code> — <Link href={citation.link}>{citation.label}</Link>
            </li>
          ))}
        </ul>
      )}
      <ToolCalls calls={message.toolCalls} />
    </li>
  );
}

function Conversation({ sessionId, pending }: { sessionId: string; pending: Pending | null }) {
  const session = useQuery('/api/data-lab/agent/sessions/{sessionId}', { params: { path: { sessionId } } });
  return (
    <Loaded data={session.data} error={session.error} retry={() => void session.mutate()} label="Loading the conversation">
      {({ data }) => (
        <ol className="agent-messages" aria-label="Conversation">
          {data.messages.map((message) => (
            <Answer key={message.id} message={message} />
          ))}
          {pending && !data.messages.some((message) => message.role === 'user' && message.content === pending.question && data.messages.at(-1) === message) && (
            <li className="agent-message user">
              <p className="agent-who">You</p>
              <p className="agent-text">{pending.question}</p>
            </li>
          )}
          {pending && (
            <li className="agent-message assistant streaming">
              <p className="agent-who">Insights agent</p>
              <p className="agent-text" aria-live="polite">
                {pending.text || 'Reading your data…'}
              </p>
              <ToolCalls calls={pending.toolCalls} />
            </li>
          )}
        </ol>
      )}
    </Loaded>
  );
}

/** The insights agent: questions about the company's pay, answered with the asker's own access and cited. */
export function InsightsAgentScreen() {
  const person = usePerson().data?.data;
  const search = useSearch();
  const [, navigate] = useLocation();
  const sessionId = new URLSearchParams(search).get('session');
  const sessions = useQuery('/api/data-lab/agent/sessions', person && can(person, 'dataLab', 'view') ? {} : null);
  const [question, setQuestion] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [problem, setProblem] = useState<unknown>(null);

  if (person && !can(person, 'dataLab', 'view')) {
    return <FailureScreen title="Permission denied" description="The insights agent needs data-lab access. Please contact your company admin for support." />;
  }
  if (sessions.error && statusOf(sessions.error) === 404) {
    return (
      <div className="insights-agent">
        <PageHeader title="Insights agent" eyebrow={<Link href="/paybench-data-lab">Data lab</Link>} icon={Bot} />
        <Empty title="The insights agent is not available">{errorMessage(sessions.error)}</Empty>
      </div>
    );
  }

  const open = (id: string | null) => navigate(id ? `/paybench-data-lab/agent?session=${id}` : '/paybench-data-lab/agent');

  const ask = async (content: string) => {
    if (!content.trim() || pending) return;
    setProblem(null);
    let target = sessionId;
    if (!target) {
      const created = await api.POST('/api/data-lab/agent/sessions', { body: {} });
      if (!created.data) {
        setProblem(created.error);
        return;
      }
      target = created.data.data.id;
      open(target);
    }
    setPending({ question: content, text: '', toolCalls: [] });
    setQuestion('');
    try {
      const { data, error } = await api.POST('/api/data-lab/agent/sessions/{sessionId}/messages', { params: { path: { sessionId: target } }, body: { content }, parseAs: 'stream' });
      if (error || !data) {
        setProblem(error);
        setQuestion(content);
        return;
      }
      for await (const { event, data: payload } of readEventStream(data)) {
        if (event === 'token') setPending((now) => now && { ...now, text: now.text + (payload as { text: string }).text });
        else if (event === 'tool') setPending((now) => now && { ...now, toolCalls: [...now.toolCalls, payload as ToolCall] });
        else if (event === 'question') void invalidate('/api/data-lab/agent/sessions/{sessionId}');
        else if (event === 'error') setProblem({ message: (payload as { message: string }).message });
      }
    } catch (error) {
      setProblem(error);
    } finally {
      await invalidate(['/api/data-lab/agent/sessions/{sessionId}', '/api/data-lab/agent/sessions']);
      setPending(null);
    }
  };

  const remove = async (id: string) => {
    const { error } = await api.DELETE('/api/data-lab/agent/sessions/{sessionId}', { params: { path: { sessionId: id } } });
    if (error) {
      setProblem(error);
      return;
    }
    if (id === sessionId) open(null);
    await invalidate('/api/data-lab/agent/sessions');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void ask(question);
  };

  return (
    <div className="insights-agent">
      <PageHeader
        title="Insights agent"
        eyebrow={<Link href="/paybench-data-lab">Data lab</Link>}
        icon={Bot}
        description="Ask about your company's pay. Answers use only what you may see, and name the operation and screen each number comes from."
        actions={
          <button type="button" className="button" onClick={() => open(null)} disabled={!sessionId}>
            <MessageSquarePlus size={16} aria-hidden="true" /> New conversation
          </button>
        }
      />
      <div className="agent-layout">
        <Section title="Conversations" id="agent-sessions" className="agent-sessions">
          {sessions.error ? (
            <ErrorState error={sessions.error} retry={() => void sessions.mutate()} />
          ) : !sessions.data ? (
            <p className="muted">Loading conversations…</p>
          ) : sessions.data.data.length === 0 ? (
            <p className="muted">No conversations yet.</p>
          ) : (
            <ul className="agent-session-list">
              {sessions.data.data.map((session) => (
                <li key={session.id} className={session.id === sessionId ? 'current' : undefined}>
                  <Link href={`/paybench-data-lab/agent?session=${session.id}`} aria-current={session.id === sessionId ? 'page' : undefined}>
                    <span className="agent-session-title">{session.title}</span>
                    <span className="muted">{when(session.updatedAt)}</span>
                  </Link>
                  <button type="button" className="ghost icon-button" aria-label={`Delete “${session.title}”`} onClick={() => void remove(session.id)}>
                    <Trash2 size={16} aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title={sessions.data?.data.find((session) => session.id === sessionId)?.title ?? 'New conversation'} id="agent-conversation" className="agent-main">
          {sessionId ? (
            <Conversation sessionId={sessionId} pending={pending} />
          ) : pending ? null : (
            <div className="agent-suggestions">
              <p className="muted">Try one of these:</p>
              <ul>
                {SUGGESTIONS.map((suggestion) => (
                  <li key={suggestion}>
                    <button type="button" className="ghost" onClick={() => void ask(suggestion)} disabled={Boolean(pending)}>
                      {suggestion}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {problem ? <FormProblem message={errorMessage(problem)} fields={fieldProblems(problem)} /> : null}
          <form className="agent-ask" onSubmit={submit}>
            <label htmlFor="agent-question">Your question</label>
            <div className="agent-ask-row">
              <textarea
                id="agent-question"
                rows={2}
                maxLength={2000}
                value={question}
                onChange={(event) => setQuestion(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && !event.shiftKey) {
                    event.preventDefault();
                    void ask(question);
                  }
                }}
                placeholder="Who is below band in Sales?"
              />
              <button type="submit" className="primary" disabled={!question.trim() || Boolean(pending)}>
                <Send size={16} aria-hidden="true" /> {pending ? 'Answering…' : 'Ask'}
              </button>
            </div>
          </form>
        </Section>
      </div>
    </div>
  );
}
