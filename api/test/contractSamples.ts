import type { Contract, ContractOperation } from '../src/http/contract.js';

type Schema = Record<string, unknown>;

/** Resolves `#/components/...` references against the contract document. */
function resolve(contract: Contract, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const [, , section, name] = ref.split('/');
  const target = section && name ? (contract.document.components[section]?.[name] as Schema | undefined) : undefined;
  if (!target) throw new Error(`unresolved ${ref}`);
  return resolve(contract, { ...target, ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$ref')) });
}

/** The smallest value the schema accepts, so a generated request gets past validation. */
export function sampleOf(contract: Contract, input: Schema): unknown {
  const schema = resolve(contract, input);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((part) => sampleOf(contract, part as Schema)));
  // One of several shapes (a value or null): the first one, which the contracts write as the value.
  if (Array.isArray(schema.oneOf) && schema.oneOf.length) return sampleOf(contract, schema.oneOf[0] as Schema);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const names = required.length ? required : Object.keys(properties).slice(0, Number(schema.minProperties ?? 0));
      return Object.fromEntries(names.map((name) => [name, sampleOf(contract, properties[name] ?? {})]));
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => sampleOf(contract, (schema.items ?? {}) as Schema));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      // A fresh address each time: some operations create an account for it, and addresses are unique.
      if (schema.format === 'email') return `sample-${Math.random().toString(36).slice(2, 10)}@example.test`;
      if (schema.format === 'date') return '2024-01-02';
      if (schema.format === 'date-time') return '2024-01-02T00:00:00.000Z';
      if (schema.pattern === '^[A-Z]{3}$') return 'USD';
      return 'sample'.padEnd(Number(schema.minLength ?? 0), 'x');
    default:
      return {};
  }
}

/** A request body that satisfies the operation's contract, or undefined when it takes none. */
export function sampleBody(contract: Contract, operation: ContractOperation): unknown {
  const item = contract.document.paths[operation.path]?.[operation.method] as { requestBody?: { content: Record<string, { schema: Schema }> } } | undefined;
  const schema = item?.requestBody?.content['application/json']?.schema;
  return schema ? sampleOf(contract, schema) : undefined;
}

export function fillPath(operation: ContractOperation, values: Record<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `missing-${name}`));
}

/** The operation's address: its path parameters from `values`, and its required query parameters from `values` or a sample. */
export function fillUrl(contract: Contract, operation: ContractOperation, values: Record<string, string>): string {
  const item = contract.document.paths[operation.path]?.[operation.method] as { parameters?: Schema[] } | undefined;
  const query = new URLSearchParams();
  for (const raw of item?.parameters ?? []) {
    const parameter = resolve(contract, raw) as { in?: string; name?: string; required?: boolean; schema?: Schema };
    if (parameter.in !== 'query' || !parameter.required || !parameter.name) continue;
    query.set(parameter.name, values[parameter.name] ?? String(sampleOf(contract, parameter.schema ?? {})));
  }
  const path = fillPath(operation, values);
  return query.size ? `${path}?${query.toString()}` : path;
}
