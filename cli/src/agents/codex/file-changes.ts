// file-changes.ts: Codex's patch approvals in the neutral FileChanges shape (shared/file-changes.ts),
// so the phone draws files and diffs instead of Codex's JSON. Two sources, one result:
//
//   app-server v2 fileChange item  {changes: [{path, kind: {type, move_path?}, diff}]}  (add/delete:
//                                  the file's text; update: a unified diff): headless approvals
//   apply_patch text               `*** Begin Patch` … `*** Add|Delete|Update File: <path>` … `*** End Patch`
//                                  (the tool's own input, as the rollout records it): the chat's card;
//                                  the same text as `tool_input.command` of its PTY hooks (tool
//                                  `apply_patch`, 0.160.0 and 0.171.0): the phone's approval
//   `apply_patch <<'EOF'` … `EOF`  a patch the model ran through exec_command (Codex intercepts it and
//                                  applies it as a patch, asking as for one): the chat's card
//
// tether's app-server client speaks v2 only, so v1's applyPatchApproval never reaches it.
//
// Anything unreadable is dropped, never guessed: a change the phone cannot show is not shown as another.
import { clipDiff, diffHunks, FILE_CHANGES_TOOL_NAME, MAX_FILE_CHANGES, wholeFileDiff, type FileChange, type FileChangeKind } from '@tether/shared';

type Json = Record<string, unknown>;

function record(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function change(o: { path: unknown; kind: unknown; movePath?: unknown; text: unknown }): FileChange | null {
  if (typeof o.path !== 'string' || o.path === '' || typeof o.text !== 'string') return null;
  if (o.kind !== 'add' && o.kind !== 'delete' && o.kind !== 'update') return null;
  const kind: FileChangeKind = o.kind;
  const diff = kind === 'update' ? diffHunks(o.text) : wholeFileDiff(o.text, kind === 'add' ? '+' : '-');
  const movePath = kind === 'update' && typeof o.movePath === 'string' && o.movePath !== '' ? o.movePath : null;
  return { path: o.path, kind, movePath, diff: clipDiff(diff) };
}

/** app-server v2: a fileChange item's `changes`. */
export function fromFileUpdateChanges(changes: unknown): FileChange[] {
  if (!Array.isArray(changes)) return [];
  return changes
    .map((item) => {
      const c = record(item);
      const kind = record(c?.kind);
      return c && kind ? change({ path: c.path, kind: kind.type, movePath: kind.move_path, text: c.diff }) : null;
    })
    .filter((c): c is FileChange => c !== null)
    .slice(0, MAX_FILE_CHANGES);
}

const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

/** apply_patch's own text. A deleted file's lines are not in the patch: its diff is empty. */
export function fromApplyPatchText(text: string): FileChange[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[0]?.trim() !== '*** Begin Patch') return [];
  const out: FileChange[] = [];
  let current: { path: string; kind: FileChangeKind; movePath: string | null; lines: string[] } | null = null;
  const flush = () => {
    if (current) out.push({ path: current.path, kind: current.kind, movePath: current.movePath, diff: clipDiff(current.lines.join('\n')) });
    current = null;
  };
  for (const line of lines.slice(1)) {
    const header = FILE_HEADER.exec(line);
    if (header) {
      flush();
      const verb = header[1]!;
      current = { path: header[2]!.trim(), kind: verb === 'Add' ? 'add' : verb === 'Delete' ? 'delete' : 'update', movePath: null, lines: [] };
    } else if (line.startsWith('*** End Patch')) break;
    else if (current && line.startsWith('*** Move to: ')) current.movePath = line.slice('*** Move to: '.length).trim() || null;
    else if (current && line !== '*** End of File') current.lines.push(line);
  }
  flush();
  return out.slice(0, MAX_FILE_CHANGES);
}

/** The patch text of a shell command that runs `apply_patch` on it (a here-document or one
 *  argument), or null when the command is anything else. */
export function patchOfCommand(command: string): string | null {
  if (!/^\s*(?:apply_patch|applypatch)\b/.test(command)) return null;
  const start = command.indexOf('*** Begin Patch');
  const end = command.indexOf('*** End Patch', start);
  return start < 0 || end < 0 ? null : command.slice(start, end + '*** End Patch'.length);
}

/** The approval the phone is asked, for changes read from any of the sources above. */
export function fileChangesQuestion(changes: FileChange[], reason: string | null): { toolName: string; toolInput: Json } {
  return { toolName: FILE_CHANGES_TOOL_NAME, toolInput: { changes, ...(reason ? { description: reason.slice(0, 4000) } : {}) } };
}
