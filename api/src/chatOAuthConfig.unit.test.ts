import { describe, expect, it } from 'vitest';
import { chatOAuthFrom } from './config.js';

const FULL = {
  PAYBENCH_CHAT_OAUTH_CLIENT_ID: 'id',
  PAYBENCH_CHAT_OAUTH_CLIENT_SECRET: 'secret',
  PAYBENCH_CHAT_OAUTH_AUTHORIZE_URL: 'https://chat.example/oauth/authorize',
  PAYBENCH_CHAT_OAUTH_TOKEN_URL: 'https://chat.example/oauth/token',
  PAYBENCH_CHAT_OAUTH_API_URL: 'https://chat.example/api',
};

describe('the chat app OAuth configuration', () => {
  it('is off without any variable and complete with all five', () => {
    expect(chatOAuthFrom({})).toBeUndefined();
    expect(chatOAuthFrom(FULL)).toEqual({ clientId: 'id', clientSecret: 'secret', authorizeUrl: FULL.PAYBENCH_CHAT_OAUTH_AUTHORIZE_URL, tokenUrl: FULL.PAYBENCH_CHAT_OAUTH_TOKEN_URL, apiUrl: FULL.PAYBENCH_CHAT_OAUTH_API_URL });
  });

  it('names what is missing or not a URL', () => {
    expect(() => chatOAuthFrom({ PAYBENCH_CHAT_OAUTH_CLIENT_ID: 'id' })).toThrow(
      "The chat app's OAuth needs PAYBENCH_CHAT_OAUTH_CLIENT_SECRET, PAYBENCH_CHAT_OAUTH_AUTHORIZE_URL, PAYBENCH_CHAT_OAUTH_TOKEN_URL, PAYBENCH_CHAT_OAUTH_API_URL as well",
    );
    expect(() => chatOAuthFrom({ ...FULL, PAYBENCH_CHAT_OAUTH_TOKEN_URL: 'chat.example/token' })).toThrow('PAYBENCH_CHAT_OAUTH_TOKEN_URL must be an http(s) URL, got "chat.example/token"');
  });
});
