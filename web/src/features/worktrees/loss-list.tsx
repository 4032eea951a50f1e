// loss-list.tsx: what removing a session's worktree would lose, as Archive's question shows it
// (issue 38): files not committed, commits no remote has, files git ignores that nothing makes again
// (`.env`, a session's local data), each named; and apart, the rebuildable folders (node_modules,
// dist…), one line each with its size, which go without being asked about. The daemon decided which
// is which and how large; a size it could not finish is "at least", one it never measured says so.
import type { IgnoredEntry, WorktreeLoss } from '@tether/shared';
import { formatBytes } from '../../lib/format.ts';

/** Lines a group shows before "and N more". */
const SHOWN = 8;

const count = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/** "a", "a and b", "a, b and c". */
function joined(parts: string[]): string {
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

/** "1 ignored file", "2 ignored folders", "3 ignored files and folders" (a path past the listed
 *  ones may be either). */
function ignoredWords(loss: WorktreeLoss): string {
  const total = loss.ignored.length + loss.ignoredMore;
  if (total === 0) return '';
  const folders = loss.ignored.filter((e) => e.path.endsWith('/')).length;
  const files = loss.ignored.length - folders;
  if (loss.ignoredMore === 0 && folders === 0) return count(files, 'ignored file');
  if (loss.ignoredMore === 0 && files === 0) return count(folders, 'ignored folder');
  return `${total.toLocaleString('en')} ignored files and folders`;
}

/** "2 uncommitted files, 1 unpushed commit and 1 ignored file": what the remove button names.
 *  Empty when nothing needs a person's yes (rebuildable folders alone do not). */
export function lossSummary(loss: WorktreeLoss): string {
  return joined([loss.uncommitted.length ? count(loss.uncommitted.length, 'uncommitted file') : '', loss.unpushed.length ? count(loss.unpushed.length, 'unpushed commit') : '', ignoredWords(loss)].filter(Boolean));
}

/** "3 files, 1.2 MB", "at least 4,000 files, 310.5 MB", "120 B" (a file), "size not measured". */
export function sizeWords(entry: IgnoredEntry): string {
  if (entry.bytes === null || entry.files === null) return 'size not measured';
  const size = entry.path.endsWith('/') ? `${count(entry.files, 'file')}, ${formatBytes(entry.bytes)}` : formatBytes(entry.bytes);
  return entry.atLeast ? `at least ${size}` : size;
}

function Group(props: { title: string; items: Array<{ key: string; name: string; size?: string }>; more: number }) {
  if (props.items.length === 0 && props.more === 0) return null;
  const rest = Math.max(0, props.items.length - SHOWN) + props.more;
  return (
    <div className="worktree-loss-group">
      <strong>{props.title}</strong>
      <ul className="worktree-loss">
        {props.items.slice(0, SHOWN).map((item) => (
          <li key={item.key}>
            <span className="worktree-loss-name">{item.name}</span>
            {item.size ? (
              <>
                {' '}
                <span className="worktree-loss-size">{item.size}</span>
              </>
            ) : null}
          </li>
        ))}
        {rest > 0 ? <li>{`and ${rest.toLocaleString('en')} more`}</li> : null}
      </ul>
    </div>
  );
}

const lines = (entries: IgnoredEntry[]) => entries.map((e) => ({ key: e.path, name: e.path, size: sizeWords(e) }));
const plain = (items: string[]) => items.map((item) => ({ key: item, name: item }));

export function LossList({ loss }: { loss: WorktreeLoss }) {
  return (
    <>
      <Group title="Not committed" items={plain(loss.uncommitted)} more={0} />
      <Group title="Committed, but no remote has them" items={plain(loss.unpushed)} more={0} />
      <Group title="Ignored by git, not rebuildable" items={lines(loss.ignored)} more={loss.ignoredMore} />
      <Group title="Rebuildable, removed without asking" items={lines(loss.rebuildable)} more={loss.rebuildableMore} />
    </>
  );
}
