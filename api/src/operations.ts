import { currencyOperations } from './currencies/routes.js';
import { forexOperations } from './forex/routes.js';
import type { RegisteredOperation } from './http/operations.js';
import { systemOperations } from './system/routes.js';

/** Every handler of the contract, by product area. */
export const allOperations: RegisteredOperation[] = [...systemOperations, ...currencyOperations, ...forexOperations];
