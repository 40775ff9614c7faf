import { Command, Option } from 'commander';
import type { Connection } from './client.js';
import { healthCommand } from './commands/health.js';
import { type OutputOptions, reportFailure } from './output.js';

interface GlobalOptions {
  url: string;
  token?: string;
  json?: boolean;
  color: boolean;
  verbose?: boolean;
}

const program = new Command()
  .name('paybench')
  .description('Paybench from the terminal: user and role imports, benchmarking exports.')
  .version(process.env.npm_package_version ?? '0.1.0')
  .addOption(new Option('--url <url>', 'Paybench server address').env('PAYBENCH_URL').default('http://localhost:3000'))
  .addOption(new Option('--token <token>', 'API token (or a signed-in session)').env('PAYBENCH_TOKEN'))
  .option('--json', 'print machine-readable JSON on stdout')
  .option('--no-color', 'print without colours (also NO_COLOR)')
  .option('--verbose', 'print more detail on failures')
  .showHelpAfterError();

function settings(): { connection: Connection; output: OutputOptions } {
  const options = program.opts<GlobalOptions>();
  return {
    connection: { url: options.url, token: options.token },
    output: {
      json: Boolean(options.json),
      color: options.color && !process.env.NO_COLOR && Boolean(process.stderr.isTTY),
      verbose: Boolean(options.verbose),
    },
  };
}

/** Runs a command body and turns any failure into a message and an exit code. */
function run(body: (connection: Connection, output: OutputOptions) => Promise<void>) {
  return async () => {
    const { connection, output } = settings();
    try {
      await body(connection, output);
    } catch (error) {
      process.exitCode = reportFailure(error, output);
    }
  };
}

program
  .command('health')
  .description('check that the server is up, its version and its database')
  .action(run(healthCommand));

await program.parseAsync(process.argv);
