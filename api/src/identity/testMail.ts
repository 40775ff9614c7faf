// Test helper: a real SMTP server on a free port that keeps every message it receives.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  /** The raw message (headers and body) with quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Messages to one address, oldest first. */
  to(address: string): ReceivedMail[];
  /** The links under `path` (such as `/invitation/`) in the messages to one address, oldest first. */
  links(address: string, path: string): string[];
  stop(): Promise<void>;
}

const decodeQuotedPrintable = (raw: string): string =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const text = /content-transfer-encoding:\s*quoted-printable/i.test(raw) ? decodeQuotedPrintable(raw) : raw;
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  const to = (address: string): ReceivedMail[] => received.filter((mail) => mail.to === address.toLowerCase());
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    to,
    links: (address, path) =>
      to(address).flatMap((mail) => [...mail.text.matchAll(new RegExp(`https?://[^\\s]+${path.replace(/[/]/g, '\\/')}[A-Za-z0-9_-]+`, 'g'))].map((match) => match[0])),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
