import { HttpError, nulRefused } from '../kernel/errors.js';

/** Deeper than any request of the contract nests (its deepest bodies are a handful of levels). */
export const MAX_JSON_DEPTH = 32;

const NUL_ESCAPE = 'u0000';

/**
 * Refuses a JSON text that nests deeper than `maxDepth` or carries a NUL character (`\u0000`),
 * before it is parsed: deep nesting would overflow the stack of every recursive reader after
 * JSON.parse, and Postgres cannot store NUL in text. One pass over the characters.
 */
export function checkJsonText(text: string, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) {
        if (text.startsWith(NUL_ESCAPE, i + 1)) throw nulRefused('request body');
        i++; // the escaped character cannot end the string
      } else if (char === 0x22 /* " */) inString = false;
      else if (char === 0) throw nulRefused('request body');
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (++depth > maxDepth) {
        throw new HttpError(400, 'too_deeply_nested', { message: `The request body nests deeper than ${maxDepth} levels.` });
      }
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) depth--;
  }
}

/** Refuses a NUL character anywhere in a request's address (path or query, escaped as %00 or not). */
export function checkAddress(url: string): void {
  if (url.includes('\0') || /%00/i.test(url)) throw nulRefused('address');
}
