import { Box, Text, render } from 'ink';
import { isInteractive } from './output.js';

interface ProgressProps {
  label: string;
  /** 0–100, or undefined while the amount of work is unknown. */
  percent: number | undefined;
  detail?: string | undefined;
}

const WIDTH = 30;

function Bar({ label, percent, detail }: ProgressProps) {
  const filled = percent === undefined ? 0 : Math.round((Math.min(100, Math.max(0, percent)) / 100) * WIDTH);
  return (
    <Box gap={1}>
      <Text>{label}</Text>
      <Text color="cyan">{`${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`}</Text>
      <Text>{percent === undefined ? '…' : `${Math.round(percent)}%`}</Text>
      {detail ? <Text dimColor>{detail}</Text> : null}
    </Box>
  );
}

export interface Progress {
  update(props: ProgressProps): void;
  done(): void;
}

const silent: Progress = { update: () => undefined, done: () => undefined };

/**
 * A progress bar on stderr for a person at a real terminal; nothing at all in a pipe, a CI log,
 * under `TERM=dumb` or on a terminal without a width (ink would draw one character per line).
 */
export function progressBar(initial: ProgressProps): Progress {
  if (!isInteractive(process.stderr)) return silent;
  const app = render(<Bar {...initial} />, { stdout: process.stderr as unknown as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: true });
  return {
    update: (props) => app.rerender(<Bar {...props} />),
    done: () => {
      app.unmount();
    },
  };
}
