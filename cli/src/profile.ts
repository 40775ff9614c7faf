import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** What `paybench login` keeps for one server: the device-flow tokens and who they belong to. */
export interface Profile {
  url: string;
  email: string;
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch milliseconds after which the access token must be refreshed. */
  expiresAt: number;
}

interface ConfigFile {
  profiles: Record<string, Profile>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'paybench');
}

export const configFile = (): string => path.join(configDir(), 'config.json');

function read(): ConfigFile {
  const file = configFile();
  if (!existsSync(file)) return { profiles: {} };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConfigFile>;
  return { profiles: parsed.profiles ?? {} };
}

/** Tokens are secrets: the directory is 0700, the file 0600, and it is replaced atomically. */
function write(config: ConfigFile): void {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile();
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

export function loadProfile(name: string): Profile | undefined {
  return read().profiles[name];
}

export function saveProfile(name: string, profile: Profile): void {
  const config = read();
  config.profiles[name] = profile;
  write(config);
}

/** True when there was something to forget. */
export function removeProfile(name: string): boolean {
  const config = read();
  if (!config.profiles[name]) return false;
  delete config.profiles[name];
  write(config);
  return true;
}
