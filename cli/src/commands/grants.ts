import { type CommandContext, importPeopleFile } from './employees.js';

/** `paybench grants import FILE`: cap-table grants by grant id, for employees already in Paybench; all or nothing. */
export async function importGrantsCommand(ctx: CommandContext, file: string, options: { mapping?: string; dryRun?: boolean }): Promise<void> {
  await importPeopleFile(ctx, 'equityGrants', file, options);
}
