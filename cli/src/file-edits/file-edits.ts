// file-edits.ts: the runner's answer to the hub's `file:write`: one person's save of one text file
// in the session's folder (write.ts), and the list of files saved so the agent's next prompt says
// so (edited-note.ts). The workspace room beside it only reads.
//
//   hub ─file:write (ack)─► hub-link/commands.ts (schema, this session) ─► here ─► write.ts ─► ack
//
// Invariant: an unexpected error is an error ack, never an exception into the socket layer.
import { ackingFailures, type Ack, type FileWriteAnswer } from '@tether/shared';
import type { z } from 'zod';
import type { FileWriteQuerySchema } from '@tether/shared';
import type { OpenVia } from '../workspace/open-inside.ts';
import type { EditedFiles } from './edited-note.ts';
import { writeWorkspaceFile } from './write.ts';

export type FileEditor = { answer(query: z.output<typeof FileWriteQuerySchema>): Promise<Ack<FileWriteAnswer>> };

export function createFileEditor(options: { root: string; edited: EditedFiles; via?: OpenVia }): FileEditor {
  return {
    answer: ackingFailures<z.output<typeof FileWriteQuerySchema>, FileWriteAnswer>("saving a file in the session's directory", (query) => {
      const { sessionId: _id, ...request } = query;
      const done = writeWorkspaceFile({ root: options.root, ...request, ...(options.via ? { via: options.via } : {}) });
      if (done.ok && done.kind === 'written') options.edited.add(done.path);
      return done;
    }),
  };
}
