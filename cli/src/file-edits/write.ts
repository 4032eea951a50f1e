// write.ts: one person's save of one text file in the session's folder, inside the boundary reading
// has (workspace/contain.ts, workspace/open-inside.ts) and more:
//   refused   a protected name (shared editRefusal: agents' settings, hooks, `.envrc`, `.git`), a path
//             that reaches the file through a symbolic link, a hard link (nlink > 1), a file that is
//             not a regular one, binary (a NUL byte, or not UTF-8) or larger than a read sends whole
//   opened    the folder from the root's descriptor and the file in it with O_NOFOLLOW (open-inside)
//   stale     the bytes on disk are not the ones the person opened (sha256 `base`): nothing written
//   written   a temporary file in the same folder (the file's mode, its line endings and byte-order
//             mark), synced, then renamed over the name, once the name is checked to be still the
//             opened file (device and inode, one name) with the opened bytes
// A change landing between that last check and the rename (microseconds) is the one race left;
// git's own `checkout` has the same.
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { ackError, editRefusal, FILE_EDIT_MAX_BYTES, type Ack, type FileWrite, type FileWriteAnswer } from '@tether/shared';
import { containPath, HARD_LINK_REFUSAL, refusal, show } from '../workspace/contain.ts';
import { fitEncoded } from '../workspace/files.ts';
import { isHardLinked, openChild, openDirInside, type InsideDir, type OpenVia } from '../workspace/open-inside.ts';
import { contentHash, isBinary, readBytes } from '../workspace/read-text.ts';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

type Target = { dir: InsideDir; name: string; fd: number; stat: Stats; path: string };
type Current = { bytes: Buffer; text: string; hash: string };

export function writeWorkspaceFile(options: FileWrite & { root: string; via?: OpenVia }): Ack<FileWriteAnswer> {
  const { path } = options;
  const refused = editRefusal(path);
  if (refused) return ackError('forbidden', `${show(path)} ${refused}`);
  const found = containPath(options);
  if (!found.ok) return found;
  if (found.parts.join('/') !== path) return ackError('forbidden', `${show(path)} is reached through a symbolic link: it is not edited (open the file it leads to)`);
  const dir = openDirInside({ root: options.root, path: found.parts.slice(0, -1).join('/'), ...(options.via ? { via: options.via } : {}) });
  if (!dir.ok) return dir;
  try {
    const opened = openChild(dir, found.parts.at(-1)!);
    if (opened.kind === 'dir') opened.dir.close();
    if (opened.kind !== 'file') return ackError('bad_request', `${show(path)} is not a regular file`);
    try {
      return replace({ dir, name: found.parts.at(-1)!, fd: opened.fd, stat: opened.stat, path }, options);
    } finally {
      opened.close();
    }
  } catch (error) {
    return refusal(path, error);
  } finally {
    dir.close();
  }
}

function replace(target: Target, request: FileWrite): Ack<FileWriteAnswer> {
  const current = readCurrent(target);
  if (!current.ok) return current;
  if (current.hash !== request.base) return staleAnswer(target.path, current);
  const eol = lineEnding(current.text);
  const next = encode({ text: request.text, eol, bom: current.bytes.subarray(0, 3).equals(BOM) });
  if (next.length > FILE_EDIT_MAX_BYTES) return ackError('too_large', `${show(target.path)} would be ${next.length} bytes: a phone saves at most ${FILE_EDIT_MAX_BYTES}`);
  const temp = `.tether-edit-${randomBytes(6).toString('hex')}.tmp`;
  writeTemp({ dir: target.dir, name: temp, bytes: next, mode: target.stat.mode & 0o7777 });
  try {
    const now = stillTheOpened(target);
    if (!now.ok) throw Object.assign(new Error(now.why), { code: 'ESWAPPED' });
    if (now.current.hash !== request.base) {
      unlinkSync(target.dir.child(temp));
      return staleAnswer(target.path, now.current);
    }
    renameSync(target.dir.child(temp), target.dir.child(target.name));
  } catch (error) {
    try {
      unlinkSync(target.dir.child(temp));
    } catch {
      // already renamed or gone
    }
    throw error;
  }
  target.dir.verify();
  fsyncSync(target.dir.fd);
  return { ok: true, kind: 'written', path: target.path, size: next.length, hash: contentHash(next), eol };
}

/** The opened file's bytes, refused when it is not a text file a phone may edit. */
function readCurrent(target: Target): ({ ok: true } & Current) | ReturnType<typeof ackError> {
  const stat = fstatSync(target.fd);
  if (isHardLinked(stat)) return ackError('forbidden', `${show(target.path)} ${HARD_LINK_REFUSAL}`);
  if (stat.size > FILE_EDIT_MAX_BYTES) return ackError('too_large', `${show(target.path)} is ${stat.size} bytes: a phone edits files of at most ${FILE_EDIT_MAX_BYTES}`);
  const bytes = readBytes({ fd: target.fd, maxBytes: FILE_EDIT_MAX_BYTES, size: stat.size });
  const text = isBinary(bytes) ? null : decode(bytes);
  if (text === null) return ackError('bad_request', `${show(target.path)} is binary: it is not edited from here`);
  return { ok: true, bytes, text, hash: contentHash(bytes) };
}

function decode(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The name still leads to the opened file with one name, and what it holds now. */
function stillTheOpened(target: Target): { ok: true; current: Current } | { ok: false; why: string } {
  const named = lstatSync(target.dir.child(target.name));
  if (!named.isFile() || named.dev !== target.stat.dev || named.ino !== target.stat.ino) return { ok: false, why: 'the name now leads to another file' };
  if (isHardLinked(named)) return { ok: false, why: 'the file has a second name now' };
  const bytes = readBytes({ fd: target.fd, maxBytes: FILE_EDIT_MAX_BYTES + 1, size: named.size });
  return { ok: true, current: { bytes, text: decode(bytes) ?? '', hash: contentHash(bytes) } };
}

/** The current text goes back when its JSON fits one answer; else only its hash (null text). */
function staleAnswer(path: string, current: Current): Ack<FileWriteAnswer> {
  const text = isBinary(current.bytes) ? null : decode(current.bytes);
  return { ok: true, kind: 'stale', path, hash: current.hash, text: text !== null && fitEncoded(text) === text ? text : null };
}

/** CRLF when most of the file's line breaks are: a file that mixes keeps its majority. */
export function lineEnding(text: string): 'lf' | 'crlf' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > 0 && crlf >= lf ? 'crlf' : 'lf';
}

/** The phone's text (a browser's text area gives LF) in the file's own line endings and mark. */
export function encode(options: { text: string; eol: 'lf' | 'crlf'; bom: boolean }): Buffer {
  const lf = options.text.replace(/\r\n/g, '\n');
  const body = Buffer.from(options.eol === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf, 'utf8');
  return options.bom ? Buffer.concat([BOM, body]) : body;
}

function writeTemp(options: { dir: InsideDir; name: string; bytes: Buffer; mode: number }): void {
  const fd = openSync(options.dir.child(options.name), TEMP_FLAGS, options.mode);
  let written = false;
  try {
    fchmodSync(fd, options.mode); // the umask took bits the file had
    let at = 0;
    while (at < options.bytes.length) at += writeSync(fd, options.bytes, at, options.bytes.length - at);
    fsyncSync(fd);
    written = true;
  } finally {
    closeSync(fd);
    if (!written) unlinkSync(options.dir.child(options.name));
  }
}
