// workspace.ts: the runner's answer to the hub's `workspace:query`: what a viewer may read of the
// session's directory (changes against HEAD, a directory, a file), read-only and inside it only.
//
//   hub ─workspace:query (ack)─► hub-link/commands.ts (schema) ─► here ─► changes.ts | files.ts ─► ack
//
// Invariants: nothing outside `root` is read (contain.ts: `..`, absolute paths and links out are
// refused); nothing is written (git reads take no optional lock); every answer fits one event.
// An unexpected error is an error ack, never a thrown exception into the socket layer.
import { ackError, ackingFailures, type Ack, type WorkspaceAnswer, type WorkspaceQuery } from '@tether/shared';
import type { z } from 'zod';
import type { WorkspaceQuerySchema } from '@tether/shared';
import { readChanges } from './changes.ts';
import { listWorkspaceDir, readWorkspaceFile } from './files.ts';
import type { OpenVia } from './open-inside.ts';

export type WorkspaceReader = { answer(query: z.output<typeof WorkspaceQuerySchema>): Promise<Ack<WorkspaceAnswer>> };

/** `via`: how paths are opened (open-inside.ts); the platform's own unless a test names one. */
export function createWorkspaceReader(options: { root: string; via?: OpenVia }): WorkspaceReader {
  const via = options.via ? { via: options.via } : {};
  return {
    answer: ackingFailures("reading the session's directory", async (query) => {
      switch (query.kind) {
        case 'changes':
          return await readChanges({ root: options.root, cursor: query.cursor, base: query.base, ...via });
        case 'list':
          return listWorkspaceDir({ root: options.root, path: query.path, ...via });
        case 'read':
          return readWorkspaceFile({ root: options.root, path: query.path, ...via });
        default: {
          const never: never = query;
          return ackError('bad_request', `unknown workspace query ${String((never as WorkspaceQuery).kind)}`);
        }
      }
    }),
  };
}
