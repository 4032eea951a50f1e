// edit-request.ts: opencode's request to change files, in the neutral FileChanges shape the phone
// draws as files and diffs (shared/file-changes.ts). Its edit, write and apply_patch tools all ask
// `permission: "edit"`, with metadata (1.17.0 and 1.18.33 alike, in its server's permission.asked
// and as the raw input of ACP's request_permission):
//
//   edit, write    {filepath: absolute path, diff: a unified diff of the whole file (Index/---/+++ headers)}
//   apply_patch    {filepath: "a, b", diff, files: [{filePath, type: add|update|delete|move, patch, movePath}]}
//
// A new file's diff starts `@@ -0,0 `: drawn as an added file. Anything unreadable is dropped, never
// guessed: a change the phone cannot show is not shown as another.
import { clipDiff, diffHunks, FILE_CHANGES_TOOL_NAME, MAX_FILE_CHANGES, type FileChange } from '@tether/shared';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** One file of apply_patch's list. */
function listedChange(file: unknown): FileChange | null {
  if (!isObject(file)) return null;
  const path = str(file.filePath);
  const type = str(file.type);
  if (!path || !type) return null;
  const movePath = str(file.movePath);
  const kind = type === 'add' || type === 'delete' ? type : type === 'update' || type === 'move' ? 'update' : null;
  if (!kind) return null;
  return { path, kind, movePath: kind === 'update' ? movePath : null, diff: clipDiff(diffHunks(str(file.patch) ?? '')) };
}

/** The files an edit request would change (empty: none readable). */
export function opencodeEditChanges(metadata: unknown): FileChange[] {
  if (!isObject(metadata)) return [];
  if (Array.isArray(metadata.files) && metadata.files.length > 0) {
    return metadata.files.map(listedChange).filter((c): c is FileChange => c !== null).slice(0, MAX_FILE_CHANGES);
  }
  const path = str(metadata.filepath) ?? str(metadata.filePath);
  if (!path) return [];
  const diff = diffHunks(str(metadata.diff) ?? '');
  return [{ path, kind: diff.startsWith('@@ -0,0 ') ? 'add' : 'update', movePath: null, diff: clipDiff(diff) }];
}

/** The question the phone is asked for an edit request, or null when it names no file. */
export function opencodeEditQuestion(metadata: unknown): { toolName: string; toolInput: Json } | null {
  const changes = opencodeEditChanges(metadata);
  return changes.length > 0 ? { toolName: FILE_CHANGES_TOOL_NAME, toolInput: { changes } } : null;
}
