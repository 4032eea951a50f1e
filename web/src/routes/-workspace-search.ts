// -workspace-search.ts: a path in the address of the Changes and Files views, kept only when it is a
// plain path inside the session's directory (the rule of shared WorkspacePathSchema, checked by hand
// to keep zod off the first load). Anything else is dropped: the view opens at its top instead, and
// the hub and the runner check again anyway.
const MAX_PATH_CHARS = 4096;

export function workspacePath(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_PATH_CHARS || raw.includes('\0')) return undefined;
  if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw)) return undefined;
  return raw.split('/').every((s) => s !== '' && s !== '.' && s !== '..') ? raw : undefined;
}
