// connect.ts (postgres): what the person starting a hub sees when the database cannot be used:
// one line, the URL without its password, and the cause in words (not a stack).
import { StoreOpenError } from '../store.ts';

const UNPARSABLE = '(an unparsable URL)';

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return UNPARSABLE;
  }
}

export function connectionError(url: string, error: unknown): StoreOpenError {
  if (error instanceof StoreOpenError) return error;
  const where = redactUrl(url);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  const raw = error instanceof Error ? error.message : String(error);
  // The driver may quote the URL it could not parse (with its password): say it in our words.
  const message = raw.includes(url) ? 'invalid database URL' : raw.split('\n')[0]!;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || /timeout/i.test(message)) {
    return new StoreOpenError(`cannot reach the database at ${where}: ${message}`);
  }
  if (error instanceof TypeError || /invalid url/i.test(message)) {
    return new StoreOpenError(`invalid database URL ${where === UNPARSABLE ? '' : `${where} `}(expected postgres://user:password@host:port/database)`);
  }
  return new StoreOpenError(`cannot use the database at ${where}: ${message}`);
}
