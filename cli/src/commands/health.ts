import { call, createApi, type Connection } from '../client.js';
import { type OutputOptions, printJson, printPairs } from '../output.js';

export async function healthCommand(connection: Connection, output: OutputOptions): Promise<void> {
  const api = createApi(connection);
  const { data } = await call(connection, api.GET('/api/health'));
  if (output.json) return printJson(data);
  const { migrations } = data.database;
  printPairs([
    ['Server', connection.url],
    ['Status', data.status],
    ['Version', data.version],
    ['Database', data.database.engine],
    ['Migrations', migrations.upToDate ? `up to date (${migrations.applied} applied)` : `${migrations.pending} pending`],
    ['Uptime', `${data.uptimeSeconds} s`],
  ]);
}
