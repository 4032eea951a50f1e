// -workspace-search.ts: a path in the address of the Changes and Files views, kept only when it is a
// plain path inside the session's directory (the rule of shared WorkspacePathSchema, checked by hand
// to keep zod off the first load: no '..', '.', empty or `.git` part, no name over 255 bytes).
// Anything else is dropped: the view opens at its top instead, and the hub and the runner check
// again anyway.
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;
const encoder = new TextEncoder();

export function workspacePath(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || encoder.encode(raw).length > MAX_PATH_BYTES || raw.includes('\0')) return undefined;
  if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw)) return undefined;
  const plain = (s: string) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git' && encoder.encode(s).length <= MAX_NAME_BYTES;
  return raw.split('/').every(plain) ? raw : undefined;
}
