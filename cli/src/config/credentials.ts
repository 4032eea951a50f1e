// credentials.ts: the hub URL and access token this user's tether talks to.
// Env (TETHER_HUB_URL / TETHER_TOKEN) wins over the file that `tether auth login` writes (0600).
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { tetherPaths } from './paths.ts';

const CredentialsSchema = z.object({ hubUrl: z.string().url(), token: z.string().min(1) });
export type Credentials = z.infer<typeof CredentialsSchema>;

export function loadCredentials(env: NodeJS.ProcessEnv = process.env): Credentials | null {
  let saved: Partial<Credentials> = {};
  const file = tetherPaths(env).credentials;
  if (existsSync(file)) {
    const parsed = CredentialsSchema.partial().safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) saved = parsed.data;
  }
  const hubUrl = env.TETHER_HUB_URL || saved.hubUrl;
  const token = env.TETHER_TOKEN || saved.token;
  return hubUrl && token ? { hubUrl: hubUrl.replace(/\/+$/, ''), token } : null;
}

export function saveCredentials(creds: Credentials, env: NodeJS.ProcessEnv = process.env): string {
  const file = tetherPaths(env).credentials;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(CredentialsSchema.parse(creds), null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function removeCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = tetherPaths(env).credentials;
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}
