// Signing in through the built-in provider's pages, as a person does: the browser tests, the
// worksheet bench and the Lighthouse script all take these steps. Plain JavaScript with no imports,
// so that Node runs it as it is and nothing of the tests' database set-up comes with it.

/**
 * Opens /login, signs in on the provider's page, accepts the terms if this person has not yet, and
 * waits for the home screen. `timeout` (ms) bounds the waits for the screen after signing in; left
 * out, the page's default timeout applies.
 * @param {import('playwright-core').Page} page
 * @param {string} base
 * @param {string} email
 * @param {string} password
 * @param {number} [timeout]
 * @returns {Promise<void>}
 */
export async function signInThroughProvider(page, base, email, password, timeout) {
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Continue to sign in' }).click();
  await page.waitForURL('**/interaction/**');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const accept = page.getByRole('button', { name: 'I accept the terms of use' });
  const welcome = page.getByRole('heading', { name: /^Welcome, / });
  await accept.or(welcome).first().waitFor({ timeout });
  if (await accept.isVisible()) {
    await accept.click();
    await welcome.waitFor({ timeout });
  }
}
