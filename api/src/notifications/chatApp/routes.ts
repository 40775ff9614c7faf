import { can, secured } from '../../kernel/operations.js';
import { authorizeChatApp, chatAppChannels, chatAppOf, chooseChatAppChannel, completeChatAppInstall, disconnectChatApp, testChatApp } from './service.js';

const view = can('companySettings', 'view');
const edit = can('companySettings', 'edit');

/** The chat app installed through OAuth: reading needs company settings view, everything else edit. */
export const chatAppOperations = [
  secured({
    operationId: 'getChatApp',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await chatAppOf(deps, caller) }),
  }),
  secured({
    operationId: 'authorizeChatApp',
    access: edit,
    handler: async (_input, { deps, caller }) => ({ data: await authorizeChatApp(deps, caller) }),
  }),
  secured({
    operationId: 'completeChatAppInstall',
    access: edit,
    handler: async ({ body }, { deps, caller }) => ({ data: await completeChatAppInstall(deps, caller, body) }),
  }),
  secured({
    operationId: 'listChatAppChannels',
    access: edit,
    handler: async (_input, { deps, caller }) => ({ data: await chatAppChannels(deps, caller) }),
  }),
  secured({
    operationId: 'chooseChatAppChannel',
    access: edit,
    handler: async ({ body }, { deps, caller }) => ({ data: await chooseChatAppChannel(deps, caller, body.channelId) }),
  }),
  secured({
    operationId: 'testChatApp',
    access: edit,
    handler: async (_input, { deps, caller }) => ({ data: await testChatApp(deps, caller) }),
  }),
  secured({
    operationId: 'disconnectChatApp',
    access: edit,
    handler: async (_input, { deps, caller }) => ({ data: await disconnectChatApp(deps, caller) }),
  }),
];
