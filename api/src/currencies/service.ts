import type { ServiceContext } from '../kernel/operations.js';
import { presentCurrency } from './present.js';
import { listCurrencies } from './store.js';

/** Every ISO 4217 currency the product knows, as the contract shows them. */
export async function currencies(ctx: Pick<ServiceContext, 'db'>): Promise<ReturnType<typeof presentCurrency>[]> {
  return (await listCurrencies(ctx.db)).map(presentCurrency);
}
