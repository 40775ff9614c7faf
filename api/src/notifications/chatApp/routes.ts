import { can, secured } from '../../kernel/operations.js';
import { authorizeChatApp, chatAppChannels, chatAppOf, chooseChatAppChannel, completeChatAppInstall, disconnectChatApp, testChatApp } from './service.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

/** The chat app installed through OAuth: reading needs company settings view, everything else edit. */
export const chatAppOperations = [
  secured({
    operationId: 'getChatApp',
    access: view,
    handler: async (_input, ctx) => ({ data: await chatAppOf(ctx) }),
  }),
  secured({
    operationId: 'authorizeChatApp',
    access: edit,
    handler: async (_input, ctx) => ({ data: await authorizeChatApp(ctx) }),
  }),
  secured({
    operationId: 'completeChatAppInstall',
    access: edit,
    handler: async ({ body }, ctx) => ({ data: await completeChatAppInstall(ctx, body) }),
  }),
  secured({
    operationId: 'listChatAppChannels',
    access: edit,
    handler: async (_input, ctx) => ({ data: await chatAppChannels(ctx) }),
  }),
  secured({
    operationId: 'chooseChatAppChannel',
    access: edit,
    handler: async ({ body }, ctx) => ({ data: await chooseChatAppChannel(ctx, body.channelId) }),
  }),
  secured({
    operationId: 'testChatApp',
    access: edit,
    handler: async (_input, ctx) => ({ data: await testChatApp(ctx) }),
  }),
  secured({
    operationId: 'disconnectChatApp',
    access: edit,
    handler: async (_input, ctx) => ({ data: await disconnectChatApp(ctx) }),
  }),
];
