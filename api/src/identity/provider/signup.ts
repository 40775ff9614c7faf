import type { Knex } from 'knex';
import { newId } from '../../db/ids.js';
import { hashPassword } from '../passwords.js';
import { normaliseEmail } from '../../access/users.js';
import type { SignUpErrors, SignUpValues } from './pages.js';

export const MIN_PASSWORD_LENGTH = 12;
// Long enough for any passphrase, short enough that hashing cannot be used to burn CPU.
const MAX_PASSWORD_LENGTH = 1024;
const MAX_NAME_LENGTH = 100;
const MAX_EMAIL_LENGTH = 320;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SignUpInput extends SignUpValues {
  password: string;
}

export function readSignUp(form: URLSearchParams): SignUpInput {
  return {
    email: normaliseEmail(form.get('email') ?? ''),
    firstName: (form.get('firstName') ?? '').trim(),
    lastName: (form.get('lastName') ?? '').trim(),
    password: form.get('password') ?? '',
  };
}

/** What is wrong with a new password, if anything. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  return undefined;
}

export function validateSignUp(input: SignUpInput): SignUpErrors {
  const errors: SignUpErrors = {};
  if (!EMAIL.test(input.email) || input.email.length > MAX_EMAIL_LENGTH) errors.email = 'Enter an email address like name@company.com.';
  if (!input.firstName) errors.firstName = 'Enter your first name.';
  else if (input.firstName.length > MAX_NAME_LENGTH) errors.firstName = `Use at most ${MAX_NAME_LENGTH} characters.`;
  if (!input.lastName) errors.lastName = 'Enter your last name.';
  else if (input.lastName.length > MAX_NAME_LENGTH) errors.lastName = `Use at most ${MAX_NAME_LENGTH} characters.`;
  const password = passwordProblem(input.password);
  if (password) errors.password = password;
  return errors;
}

/** A new person without a company; their e-mail is unverified until they prove it. Undefined when the e-mail is taken. */
export async function createSignUpUser(db: Knex, input: SignUpInput): Promise<string | undefined> {
  // Hash first, so a taken e-mail answers no faster than a new one.
  const passwordHash = await hashPassword(input.password);
  const taken = await db('users').where({ email: input.email }).first('id');
  if (taken) return undefined;
  const id = newId();
  const now = new Date().toISOString();
  try {
    await db('users').insert({
      id,
      company_id: null,
      email: input.email,
      first_name: input.firstName,
      last_name: input.lastName,
      password_hash: passwordHash,
      email_verified: false,
      is_internal_admin: false,
      is_candidate: false,
      status: 'active',
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // Someone signed up with the same e-mail in the meantime.
    if (await db('users').where({ email: input.email }).first('id')) return undefined;
    throw error;
  }
  return id;
}
