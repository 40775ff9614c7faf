import type { Knex } from 'knex';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { newId } from '../db/ids.js';

export interface Email {
  companyId: string | null;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise every e-mail is held in the outbox table, where internal
 * admins can read it. Sent mail is recorded there too, so support can see what went out.
 */
export function createMailer(db: Knex, log: Logger, smtpUrl: string | undefined, from: string): Mailer {
  const transport: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
    async send(email) {
      let status: 'held' | 'sent' | 'failed' = 'held';
      let error: string | null = null;
      if (transport) {
        try {
          await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text });
          status = 'sent';
        } catch (failure) {
          status = 'failed';
          error = failure instanceof Error ? failure.message : String(failure);
          log.error({ err: failure, to: email.to }, 'e-mail could not be sent');
        }
      }
      await db('outbox_emails').insert({
        id: newId(),
        company_id: email.companyId,
        to_address: email.to,
        subject: email.subject,
        text_body: email.text,
        status,
        error,
        created_at: new Date().toISOString(),
      });
    },
  };
}
