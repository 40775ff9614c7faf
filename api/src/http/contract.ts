import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { parse } from 'yaml';
import type { FieldError } from '../kernel/errors.js';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

type JsonSchema = Record<string, unknown>;

interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  operationId: string;
  security?: unknown[];
  parameters?: (ParameterObject | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> } | { $ref: string };
  responses: Record<string, unknown>;
  /** A larger request body than the server's default, for operations that take whole files. */
  'x-body-limit-bytes'?: number;
  /** The product module the operation belongs to; the router answers 404 while the company does not have it. */
  'x-module'?: string;
}

export interface OpenApiDocument {
  info: { version: string };
  security?: unknown[];
  paths: Record<string, Record<string, OperationObject>>;
  components: Record<string, Record<string, unknown>>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  hasBody: boolean;
}

export interface ValidRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

export interface ContractOperation {
  operationId: string;
  method: HttpMethod;
  /** The path as the contract writes it, e.g. `/api/items/{itemId}`. */
  path: string;
  /** True when the contract lets anonymous callers in: `security: []`, or `{}` among its requirements. */
  isPublic: boolean;
  /** A public operation that also takes a bearer token (`security: [{}, bearer]`) and then knows its caller. */
  acceptsCaller: boolean;
  hasBody: boolean;
  /** The request body's media type when the operation takes one: JSON, or a CSV file as text. */
  bodyMediaType: 'application/json' | 'text/csv' | undefined;
  /** Media types of a whole-file body (`type: string, format: binary`: a CSV or a spreadsheet), read as bytes. */
  fileMediaTypes: string[];
  /** The operation's own body limit (`x-body-limit-bytes`), when it declares one. */
  bodyLimitBytes: number | undefined;
  pathParameters: string[];
  /** The product module (`x-module`) whose operations exist only for companies that have it. */
  module: string | undefined;
  /** Success statuses whose response declares an `ETag` header (the record's version, set by the router). */
  etagStatuses: ReadonlySet<number>;
  validateRequest(parts: RequestParts): { ok: true; value: ValidRequest } | { ok: false; errors: FieldError[] };
  /** Field errors when `body` does not match the contract's response for `status`. */
  checkResponse(status: number, body: unknown): FieldError[];
  /** Compiles every validator now (they compile on first use); throws on a schema Ajv refuses. */
  compileAll(): void;
}

export interface Contract {
  version: string;
  operations: ContractOperation[];
  document: OpenApiDocument;
}

const COMPONENT_REF = '#/components/';
const SCHEMA_REF = '#/components/schemas/';

/** Rewrites schema references so Ajv resolves them inside the registered `contract` schema. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)
        ? `contract#/$defs/${value.slice(SCHEMA_REF.length)}`
        : rewriteRefs(value);
  }
  return out;
}

function deref<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const [section, name] = value.$ref.slice(COMPONENT_REF.length).split('/');
    const target = section && name ? doc.components[section]?.[name] : undefined;
    if (!target) throw new Error(`openapi.yaml: unresolved reference ${value.$ref}`);
    return deref(doc, target as T | { $ref: string });
  }
  return value as T;
}

function newAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: 'discriminator' });
  return ajv;
}

function fieldName(prefix: string, error: ErrorObject): string {
  const segments = error.instancePath.split('/').filter(Boolean);
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && params.missingProperty) segments.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && params.additionalProperty) segments.push(params.additionalProperty);
  return [prefix, ...segments].join('.');
}

function describe(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[] };
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed here';
    case 'enum':
      return `must be one of: ${(params.allowedValues ?? []).map(String).join(', ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

export function toFieldErrors(prefix: string, errors: ErrorObject[] | null | undefined): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors ?? []) {
    // A failed `if`/`anyOf` wrapper repeats what its branches said.
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = fieldName(prefix, error);
    const message = describe(error);
    const key = `${field}|${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ field, message });
    }
  }
  return out;
}

/**
 * A parameter's schema with the default of the component it refers to lifted beside the `$ref`:
 * Ajv fills in only defaults written in the property itself, and the contract's defaults are
 * promised to handlers (`contract-defaults.ts`) wherever they are written.
 */
function withDefault(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (schema.default !== undefined || typeof schema.$ref !== 'string') return schema;
  const target = deref<JsonSchema>(doc, { $ref: schema.$ref });
  return target.default === undefined ? schema : { ...schema, default: target.default };
}

function objectSchema(doc: OpenApiDocument, parameters: ParameterObject[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    properties[parameter.name] = withDefault(doc, parameter.schema);
    if (parameter.required) required.push(parameter.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function jsonBodySchema(content: Record<string, { schema: JsonSchema }> | undefined): JsonSchema | undefined {
  return content?.['application/json']?.schema;
}

/** A request body is JSON, or (for file uploads such as rate tables) CSV text validated as a string. */
function requestBodyOf(content: Record<string, { schema: JsonSchema }> | undefined): { mediaType: ContractOperation['bodyMediaType']; schema: JsonSchema | undefined } {
  const csv = content?.['text/csv'];
  if (csv) return { mediaType: 'text/csv', schema: csv.schema };
  const schema = jsonBodySchema(content);
  return { mediaType: schema ? 'application/json' : undefined, schema };
}

/** The media types an operation declares as a binary file (an upload read as bytes, not JSON or text). */
function fileBodyTypes(content: Record<string, { schema: JsonSchema }> | undefined): string[] {
  return Object.entries(content ?? {})
    .filter(([, media]) => media.schema?.type === 'string' && media.schema.format === 'binary')
    .map(([type]) => type);
}

function buildOperation(
  doc: OpenApiDocument,
  ajvs: { params: Ajv2020; body: Ajv2020 },
  path: string,
  method: HttpMethod,
  operation: OperationObject,
): ContractOperation {
  const parameters = (operation.parameters ?? []).map((p) => deref<ParameterObject>(doc, p));
  // Validators compile on first use: compiling all of them takes seconds of one thread, which a
  // starting server should not spend before it can answer (`compileAll` checks them in tests).
  const compile = (ajv: Ajv2020, schema: JsonSchema): (() => ValidateFunction) => {
    let validate: ValidateFunction | undefined;
    return () => (validate ??= ajv.compile(rewriteRefs(schema) as JsonSchema));
  };
  const inPath = parameters.filter((p) => p.in === 'path');
  const validatePath = compile(ajvs.params, objectSchema(doc, inPath));
  const validateQuery = compile(ajvs.params, objectSchema(doc, parameters.filter((p) => p.in === 'query')));
  // HTTP header names are case-insensitive: compare lower-cased, and let every other header through.
  const inHeader = parameters.filter((p) => p.in === 'header').map((p) => ({ ...p, name: p.name.toLowerCase(), declared: p.name }));
  const validateHeaders = compile(ajvs.params, { ...objectSchema(doc, inHeader), additionalProperties: true });
  const headerNames = inHeader.map((p) => p.name);
  // Handlers see headers under the names the contract declares (`If-Match`).
  const declaredHeaders = (values: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(inHeader.filter((p) => values[p.name] !== undefined).map((p) => [p.declared, values[p.name]]));
  const requestBody = operation.requestBody ? deref(doc, operation.requestBody) : undefined;
  const fileMediaTypes = fileBodyTypes(requestBody?.content);
  const { mediaType: bodyMediaType, schema: bodySchema } = fileMediaTypes.length ? { mediaType: undefined, schema: undefined } : requestBodyOf(requestBody?.content);
  const validateBody = bodySchema ? compile(ajvs.body, bodySchema) : undefined;

  const responseValidators = new Map<string, () => ValidateFunction>();
  const etagStatuses = new Set<number>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const resolved = deref<{ content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, unknown> }>(doc, response as { $ref: string });
    const schema = jsonBodySchema(resolved.content);
    if (schema) responseValidators.set(status, compile(ajvs.body, schema));
    if (resolved.headers?.ETag && /^2\d\d$/.test(status)) etagStatuses.add(Number(status));
  }

  const security = operation.security ?? doc.security;
  const anonymousAllowed = Array.isArray(security) && security.some((requirement) => typeof requirement === 'object' && requirement !== null && Object.keys(requirement).length === 0);
  const isPublic = (Array.isArray(security) && security.length === 0) || anonymousAllowed;
  const acceptsCaller = anonymousAllowed && Array.isArray(security) && security.length > 1;

  return {
    operationId: operation.operationId,
    method,
    path,
    isPublic,
    acceptsCaller,
    hasBody: Boolean(validateBody),
    bodyMediaType,
    fileMediaTypes,
    bodyLimitBytes: operation['x-body-limit-bytes'],
    module: operation['x-module'],
    pathParameters: inPath.map((p) => p.name),
    etagStatuses,
    validateRequest(parts) {
      const errors: FieldError[] = [];
      const pathValues: Record<string, unknown> = { ...parts.path };
      const checkPath = validatePath();
      if (!checkPath(pathValues)) errors.push(...toFieldErrors('path', checkPath.errors));
      const queryValues: Record<string, unknown> = { ...parts.query };
      const checkQuery = validateQuery();
      if (!checkQuery(queryValues)) errors.push(...toFieldErrors('query', checkQuery.errors));
      const headerValues: Record<string, unknown> = Object.fromEntries(
        headerNames.filter((name) => parts.headers[name] !== undefined).map((name) => [name, parts.headers[name]]),
      );
      const checkHeaders = validateHeaders();
      if (!checkHeaders(headerValues)) errors.push(...toFieldErrors('header', checkHeaders.errors));
      let body: unknown = parts.body;
      if (validateBody) {
        if (!parts.hasBody) {
          if (requestBody?.required) errors.push({ field: 'body', message: 'is required' });
        } else {
          const checkBody = validateBody();
          if (!checkBody(body)) errors.push(...toFieldErrors('body', checkBody.errors));
        }
      } else if (fileMediaTypes.length) {
        if (!parts.hasBody && requestBody?.required) errors.push({ field: 'body', message: 'is required' });
      } else if (parts.hasBody) {
        errors.push({ field: 'body', message: 'is not allowed for this operation' });
        body = undefined;
      }
      return errors.length ? { ok: false, errors } : { ok: true, value: { path: pathValues, query: queryValues, headers: declaredHeaders(headerValues), body } };
    },
    checkResponse(status, body) {
      const validator = responseValidators.get(String(status)) ?? responseValidators.get('default');
      if (!validator) return status === 204 ? [] : [{ field: 'response', message: `status ${status} is not in the contract` }];
      const validate = validator();
      return validate(body) ? [] : toFieldErrors('response', validate.errors);
    },
    compileAll() {
      for (const validator of [validatePath, validateQuery, validateHeaders, validateBody, ...responseValidators.values()]) validator?.();
    },
  };
}

export function loadContract(file: string): Contract {
  return contractOf(parse(readFileSync(file, 'utf8')) as OpenApiDocument);
}

/** The contract of a parsed document (a test adds a module's paths to the real one). */
export function contractOf(doc: OpenApiDocument): Contract {
  const ajvs = { params: newAjv(true), body: newAjv(false) };
  const schemas = rewriteRefs({ $id: 'contract', $defs: doc.components.schemas ?? {} }) as JsonSchema;
  for (const ajv of Object.values(ajvs)) ajv.addSchema(schemas);
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) operations.push(buildOperation(doc, ajvs, path, method, operation));
    }
  }
  return { version: doc.info.version, operations, document: doc };
}
