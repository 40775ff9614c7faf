// The settings row is stored in approvalRules/rules.ts and the users are read by access/userContacts.ts;
// the chains file (chainsFile.ts) reads approvers by e-mail from here.
export { type UserContact, usersByEmail } from '../access/userContacts.js';
