import type { Contract } from '../http/contract.js';

/**
 * The contract operations the agent may call: reads only, each with the screen of the product that
 * shows what it answers. The agent calls them over HTTP with the asker's own credentials, so the
 * server's validation, permissions, tenancy and the market's disclosure control apply to every call
 * exactly as they would to the asker.
 */
export const AGENT_TOOLS = {
  getTeamOverview: { label: 'Headcount and payroll in your reach (team view)', link: '/team' },
  getTeamEmployeeTable: { label: 'Employees in your reach, with the columns you may see (team view)', link: '/team/employees' },
  queryMarketData: { label: 'Market percentiles through disclosure control (data explorer)', link: '/benchmarkingsurvey/data-explorer' },
  getBenchmarkingContext: { label: 'Your benchmarking access and preferred location', link: '/benchmarkingsurvey/data-explorer' },
  searchJobCatalog: { label: 'The job catalog', link: '/benchmarkingsurvey/data-explorer/search' },
  getDataCompositionLocations: { label: 'Market locations and their coverage (data composition)', link: '/benchmarkingsurvey/data-explorer' },
} as const;

export type AgentToolName = keyof typeof AGENT_TOOLS;

export const isAgentTool = (name: string): name is AgentToolName => Object.hasOwn(AGENT_TOOLS, name);

export interface ToolResult {
  operationId: AgentToolName;
  status: number;
  /** The parsed JSON answer (the error shape on a refusal); undefined when the server could not be reached. */
  body: unknown;
}

/** Calls one operation as the asker; every call is reported (and logged) by `onCall`. */
export type ToolCaller = (operationId: AgentToolName, input: Record<string, unknown>) => Promise<ToolResult>;

interface OperationShape {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string;
  /** The JSON schema of the input: the query parameters of a GET, the body of a POST. */
  parameters: Record<string, unknown>;
}

type Node = Record<string, unknown>;

/** Inlines `#/components/...` references (depth-limited: the agent's tools need no recursive shapes). */
function inline(document: Contract['document'], node: unknown, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(document, item, depth));
  if (node === null || typeof node !== 'object') return node;
  const object = node as Node;
  if (typeof object.$ref === 'string') {
    if (depth > 8) return {};
    const [, , section, name] = object.$ref.split('/');
    const target = section && name ? document.components[section]?.[name] : undefined;
    const rest = Object.fromEntries(Object.entries(object).filter(([key]) => key !== '$ref'));
    return inline(document, { ...(target as Node | undefined), ...rest }, depth + 1);
  }
  return Object.fromEntries(Object.entries(object).filter(([key]) => key !== 'examples' && key !== 'example').map(([key, value]) => [key, inline(document, value, depth)]));
}

/** Method, path and input schema of an agent tool, read from the contract. */
export function operationShape(contract: Contract, operationId: AgentToolName): OperationShape {
  const operation = contract.operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`The contract has no operation ${operationId}`);
  const item = contract.document.paths[operation.path]?.[operation.method] as
    | { summary?: string; description?: string; parameters?: unknown[]; requestBody?: { content?: Record<string, { schema?: unknown }> } }
    | undefined;
  const method = operation.method.toUpperCase() === 'POST' ? 'POST' : 'GET';
  let parameters: Record<string, unknown>;
  if (method === 'POST') {
    parameters = (inline(contract.document, item?.requestBody?.content?.['application/json']?.schema ?? { type: 'object' }) as Node) ?? {};
  } else {
    const properties: Record<string, unknown> = {};
    for (const raw of item?.parameters ?? []) {
      const parameter = inline(contract.document, raw) as { name?: string; in?: string; schema?: unknown; description?: string };
      if (parameter.in !== 'query' || !parameter.name || parameter.name === 'cursor') continue;
      properties[parameter.name] = { ...(parameter.schema as Node), ...(parameter.description ? { description: parameter.description } : {}) };
    }
    parameters = { type: 'object', additionalProperties: false, properties };
  }
  return { method, path: operation.path, summary: item?.summary ?? operationId, description: item?.description ?? '', parameters };
}

/** The tools as an OpenAI-compatible model is told of them: name, description and JSON schema from the contract. */
export function toolDefinitions(contract: Contract): { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }[] {
  return (Object.keys(AGENT_TOOLS) as AgentToolName[]).map((name) => {
    const shape = operationShape(contract, name);
    return { type: 'function', function: { name, description: `${shape.summary}. ${shape.description}`.trim().slice(0, 1000), parameters: shape.parameters } };
  });
}

/** A query string as the router reads it: arrays as repeated keys. */
export function queryString(input: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface CallRecord {
  operationId: AgentToolName;
  method: 'GET' | 'POST';
  path: string;
  input: Record<string, unknown>;
  status: number;
}

/**
 * A caller of the product's own API at `baseUrl` with the asker's headers (their Authorization and
 * view-as headers, nothing else): each call is reported to `onCall` once it has answered.
 */
export function httpToolCaller(contract: Contract, baseUrl: string, credentials: Record<string, string>, onCall: (call: CallRecord) => Promise<void>): ToolCaller {
  return async (operationId, input) => {
    const shape = operationShape(contract, operationId);
    const path = shape.path + (shape.method === 'GET' ? queryString(input) : '');
    let status = 0;
    let body: unknown;
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method: shape.method,
        headers: { ...credentials, accept: 'application/json', ...(shape.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        body: shape.method === 'POST' ? JSON.stringify(input) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      const text = await response.text();
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    await onCall({ operationId, method: shape.method, path, input, status });
    return { operationId, status, body };
  };
}
