import type { Page } from 'playwright-core';

/**
 * Opens /login, signs in on the provider's page, accepts the terms if this person has not yet, and
 * waits for the home screen. `timeout` (ms) bounds the waits for the screen after signing in; left
 * out, the page's default timeout applies.
 */
export function signInThroughProvider(page: Page, base: string, email: string, password: string, timeout?: number): Promise<void>;
