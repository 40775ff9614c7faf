// The e-mails that get a person into their account: an invitation and a password reset.

export interface AccountEmail {
  subject: string;
  text: string;
}

export interface InvitationEmailInput {
  to: string;
  firstName: string;
  companyName: string;
  /** Who added the person, as the e-mail names them. */
  inviter: string;
  isCandidate: boolean;
  /** The one-time link to choose a password, or (with an external issuer) where to sign in. */
  link: string;
  /** When the one-time link stops working; null with an external issuer. */
  expiresAt: Date | null;
}

export function invitationEmail(input: InvitationEmailInput): AccountEmail {
  const what = input.isCandidate ? `${input.companyName} invited you to Paybench to share an offer with you.` : `${input.inviter} added you to ${input.companyName} on Paybench.`;
  const how = input.expiresAt
    ? `Choose your password to sign in (the link works once, until ${input.expiresAt.toUTCString()}):\n${input.link}`
    : `Sign in with your organisation's account at:\n${input.link}`;
  return {
    subject: `You're invited to ${input.companyName} on Paybench`,
    text: `Hello ${input.firstName},\n\n${what}\n\n${how}\n\nYour sign-in email is ${input.to}.\n`,
  };
}

export interface PasswordResetEmailInput {
  to: string;
  firstName: string;
  /** The one-time link to choose a new password. */
  link: string;
  expiresAt: Date;
}

export function passwordResetEmail(input: PasswordResetEmailInput): AccountEmail {
  return {
    subject: 'Reset your Paybench password',
    text:
      `Hello ${input.firstName},\n\n` +
      `Someone asked to reset the password of your Paybench account (${input.to}).\n\n` +
      `Choose a new password here (the link works once, until ${input.expiresAt.toUTCString()}):\n${input.link}\n\n` +
      `Choosing a new password signs you out everywhere. If you did not ask for this, ignore this e-mail: your password stays as it is.\n`,
  };
}

export interface AccountExistsEmailInput {
  to: string;
  firstName: string;
  signInUrl: string;
}

/**
 * To the owner of an address someone tried to sign up with: sign-up answers the same whether or
 * not an account exists, so this e-mail is where the owner learns it. It carries no secret: the
 * attempt came from whoever typed the address, so it only points to signing in and "Forgot password?".
 */
export function accountExistsEmail(input: AccountExistsEmailInput): AccountEmail {
  return {
    subject: 'You already have a Paybench account',
    text:
      `Hello ${input.firstName},\n\n` +
      `Someone, perhaps you, tried to create a Paybench account with ${input.to}. This address already has an account, so nothing was created or changed.\n\n` +
      `Sign in here: ${input.signInUrl}\n` +
      `Forgotten your password? Choose "Forgot password?" on the sign-in page. If you were invited and have not chosen a password yet, use the link in your invitation, or ask your company admin to send it again.\n\n` +
      `If it was not you, ignore this e-mail: your account stays as it is.\n`,
  };
}
