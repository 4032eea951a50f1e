// find-files.ts: the runner's answer to the hub's `find:files`: a person's search through the names
// and contents of the session's files, inside the boundary the Files view reads in.
//
//   hub ─find:files (ack)─► hub-link/commands.ts (schema, this session) ─► here ─► ack
//
// Every folder is opened by its relative path through workspace/open-inside.ts (containPath's real
// path check, then name by name without following a link), every file with openChild (O_NOFOLLOW).
// Never visited: `.git` (any case), `node_modules` (generated, and thousands of files), a symbolic
// link (in or out: the walk follows none), a hard-linked file (a second name of a file that may be
// outside), a device, socket or FIFO. Contents are not read of a binary file (a NUL in its first
// 8000 bytes, or not UTF-8) or of one over FIND_MAX_FILE_BYTES; their names are still matched.
// Bounded: FIND_MAX_MATCHES places, FIND_MAX_ENTRIES entries, FIND_MAX_READ_BYTES read, and
// FIND_FILES_TIME_MS; the answer says which stopped it. The walk hands the event loop back every
// few milliseconds, so a search never stalls the PTY it shares the process with.
import { lstatSync, readdirSync } from 'node:fs';
import {
  ackingFailures,
  compileLinePattern,
  FIND_FILES_TIME_MS,
  FIND_MAX_ENTRIES,
  FIND_MAX_FILE_BYTES,
  FIND_MAX_MATCHES,
  FIND_MAX_READ_BYTES,
  FIND_SNIPPET_CHARS,
  isGitPart,
  lineSnippet,
  type Ack,
  type FileFindMatch,
  type FilesFindAnswer,
  type FilesFindQuerySchema,
  type LinePattern,
} from '@tether/shared';
import type { z } from 'zod';
import { isHardLinked, openChild, openDirInside, type InsideDir, type OpenVia } from '../workspace/open-inside.ts';
import { isBinary, readBytes } from '../workspace/read-text.ts';

/** Folders the walk never enters besides `.git`: generated, and large enough to eat every budget. */
const NOT_WALKED = new Set(['node_modules']);
/** Work done between two yields to the event loop. */
const SLICE_MS = 8;

export type FilesFinder = { answer(query: z.output<typeof FilesFindQuerySchema>): Promise<Ack<FilesFindAnswer>> };

export type FindLimits = { entries: number; bytes: number; timeMs: number; matches: number; fileBytes: number };
const LIMITS: FindLimits = { entries: FIND_MAX_ENTRIES, bytes: FIND_MAX_READ_BYTES, timeMs: FIND_FILES_TIME_MS, matches: FIND_MAX_MATCHES, fileBytes: FIND_MAX_FILE_BYTES };

export function createFilesFinder(options: { root: string; via?: OpenVia }): FilesFinder {
  return {
    answer: ackingFailures<z.output<typeof FilesFindQuerySchema>, FilesFindAnswer>("searching the session's files", async (query) => {
      const pattern = compileLinePattern({ query: query.q, mode: query.mode, caseSensitive: query.caseSensitive });
      return { ok: true, ...(await findInFiles({ root: options.root, pattern, ...(options.via ? { via: options.via } : {}) })) };
    }),
  };
}

type Walk = { root: string; via?: OpenVia; pattern: LinePattern; limits: FindLimits; started: number; answer: FilesFindAnswer };

/** The walk, depth first in name order, until it is done or a limit stops it. */
export async function findInFiles(options: { root: string; pattern: LinePattern; via?: OpenVia; limits?: Partial<FindLimits> }): Promise<FilesFindAnswer> {
  const walk: Walk = {
    root: options.root,
    ...(options.via ? { via: options.via } : {}),
    pattern: options.pattern,
    limits: { ...LIMITS, ...options.limits },
    started: Date.now(),
    answer: { matches: [], stopped: null, files: 0, bytes: 0, skipped: 0 },
  };
  const folders: string[] = [''];
  let entries = 0;
  let sliceStart = Date.now();
  while (folders.length > 0 && walk.answer.stopped === null) {
    const path = folders.pop()!;
    const dir = openDirInside({ root: walk.root, path, ...(walk.via ? { via: walk.via } : {}) });
    if (!dir.ok) {
      walk.answer.skipped++;
      continue;
    }
    const below: string[] = [];
    try {
      const names = readdirSync(dir.self).filter((n) => !isGitPart(n)).sort();
      for (const name of names) {
        if (++entries > walk.limits.entries) walk.answer.stopped = 'entries';
        else if (Date.now() - walk.started > walk.limits.timeMs) walk.answer.stopped = 'time';
        if (walk.answer.stopped !== null) break;
        const child = path === '' ? name : `${path}/${name}`;
        try {
          if (visit({ walk, dir, name, path: child }) === 'dir') below.push(child);
        } catch {
          walk.answer.skipped++; // gone, or replaced by a link, since it was listed
        }
        if (Date.now() - sliceStart >= SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = Date.now();
        }
      }
      dir.verify();
    } catch {
      walk.answer.skipped++; // the folder changed while it was read: what it held is not trusted
    } finally {
      dir.close();
    }
    folders.push(...below.reverse());
  }
  return walk.answer;
}

/** One entry: its name matched, and a file's lines. Says whether it is a folder to walk into. */
function visit(o: { walk: Walk; dir: InsideDir; name: string; path: string }): 'dir' | 'done' {
  const { walk, dir, name, path } = o;
  const named = walk.pattern.match(name);
  if (named) add(walk, { path, line: null, ...lineSnippet(path, { start: path.length - name.length + named.start, end: path.length - name.length + named.end }, FIND_SNIPPET_CHARS) });
  const own = lstatSync(dir.child(name));
  if (own.isSymbolicLink()) {
    walk.answer.skipped++;
    return 'done';
  }
  if (own.isDirectory()) return NOT_WALKED.has(name) ? 'done' : 'dir';
  if (!own.isFile() || isHardLinked(own) || own.size > walk.limits.fileBytes) {
    walk.answer.skipped++;
    return 'done';
  }
  if (walk.answer.bytes + own.size > walk.limits.bytes) {
    walk.answer.stopped = 'bytes';
    return 'done';
  }
  searchFile(o);
  return 'done';
}

/** The file's lines, opened without following a link; binary or not UTF-8: skipped. */
function searchFile(o: { walk: Walk; dir: InsideDir; name: string; path: string }): void {
  const { walk } = o;
  const opened = openChild(o.dir, o.name);
  if (opened.kind !== 'file') {
    if (opened.kind === 'dir') opened.dir.close();
    walk.answer.skipped++;
    return;
  }
  let bytes: Buffer;
  try {
    if (isHardLinked(opened.stat)) {
      walk.answer.skipped++;
      return;
    }
    bytes = readBytes({ fd: opened.fd, maxBytes: walk.limits.fileBytes, size: opened.stat.size });
  } finally {
    opened.close();
  }
  walk.answer.files++;
  walk.answer.bytes += bytes.length;
  let text: string;
  try {
    if (isBinary(bytes)) throw new Error('binary');
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    walk.answer.skipped++;
    return;
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && walk.answer.stopped === null; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const found = walk.pattern.match(line);
    if (found) add(walk, { path: o.path, line: i + 1, ...lineSnippet(line, found, FIND_SNIPPET_CHARS) });
  }
}

function add(walk: Walk, match: FileFindMatch): void {
  if (walk.answer.matches.length >= walk.limits.matches) {
    walk.answer.stopped = 'matches';
    return;
  }
  walk.answer.matches.push(match);
}
