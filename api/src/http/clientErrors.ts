import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, HttpError } from '../kernel/errors.js';

/** Requests Node refuses before any middleware sees them, by llhttp's error code. */
function refusal(code: string | undefined): HttpError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new HttpError(431, 'headers_too_large', { message: 'The request line or headers are too large; send a shorter address or fewer headers.' });
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new HttpError(408, 'request_timeout', { message: 'The request took too long to arrive.' });
  return new HttpError(400, 'malformed_request', { message: 'The request is not valid HTTP.' });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Answers requests that Node's HTTP parser refuses (oversized headers or query: 431, malformed
 * HTTP: 400) in the one error shape instead of Node's bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refused = refusal(error.code);
    const body = JSON.stringify(errorBody(refused));
    socket.end(
      `HTTP/1.1 ${refused.status} ${REASONS[refused.status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
