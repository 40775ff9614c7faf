import type { Command } from 'commander';
import { RejectedInput } from '../output.js';

interface Tree {
  commands: string[];
  children: Record<string, string[]>;
  options: string[];
}

/** What can follow `paybench` and each command, read from the command tree so it never drifts. */
function tree(program: Command): Tree {
  const names = (command: Command) => command.commands.map((child) => child.name());
  const longs = (command: Command) => command.options.map((option) => option.long).filter((long): long is string => Boolean(long));
  const children: Record<string, string[]> = {};
  const options = new Set(longs(program));
  for (const command of program.commands) {
    children[command.name()] = names(command);
    for (const long of longs(command)) options.add(long);
    for (const child of command.commands) for (const long of longs(child)) options.add(long);
  }
  return { commands: names(program), children, options: [...options].sort() };
}

function bash(t: Tree): string {
  const cases = Object.entries(t.children)
    .filter(([, subs]) => subs.length)
    .map(([name, subs]) => `      ${name}) words="${subs.join(' ')}" ;;`)
    .join('\n');
  return `# paybench completion for bash: eval "$(paybench completion bash)"
_paybench() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words=""
  if [[ "$cur" == -* ]]; then
    words="${t.options.join(' ')}"
  elif [[ $COMP_CWORD -eq 1 ]]; then
    words="${t.commands.join(' ')}"
  elif [[ $COMP_CWORD -eq 2 ]]; then
    case "\${COMP_WORDS[1]}" in
${cases}
    esac
  fi
  if [[ -z "$words" && $COMP_CWORD -gt 1 ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _paybench paybench
`;
}

function zsh(t: Tree): string {
  const cases = Object.entries(t.children)
    .filter(([, subs]) => subs.length)
    .map(([name, subs]) => `      ${name}) compadd -- ${subs.join(' ')} ;;`)
    .join('\n');
  return `#compdef paybench
# paybench completion for zsh: eval "$(paybench completion zsh)"
_paybench() {
  if [[ "$PREFIX" == -* ]]; then
    compadd -- ${t.options.join(' ')}
  elif (( CURRENT == 2 )); then
    compadd -- ${t.commands.join(' ')}
  elif (( CURRENT == 3 )); then
    case "$words[2]" in
${cases}
      *) _files ;;
    esac
  else
    _files
  fi
}
compdef _paybench paybench
`;
}

export function completionCommand(program: Command, shell: string): void {
  if (shell !== 'bash' && shell !== 'zsh') throw new RejectedInput(`Completion is available for bash and zsh, not "${shell}".`);
  process.stdout.write(shell === 'bash' ? bash(tree(program)) : zsh(tree(program)));
}
