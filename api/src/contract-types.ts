// The generated contract types, re-exported once so that modules import them from one place.
export type { components, operations, paths } from '../../openapi.js';
