import createClient from 'openapi-fetch';
import { createQueryHook } from 'swr-openapi';
import type { paths } from '../../../openapi.d.ts';

/** The one typed client of the contract; every screen reaches the API through it. */
export const api = createClient<paths>({ baseUrl: '/' });

export const useQuery = createQueryHook(api, 'paybench');
