// git-actions.ts: the runner's answer to the hub's `git:action`: the index's state, or one write
// (stage, unstage, commit, push, pull request) in the session's folder. The workspace room beside it
// only reads; every write to the repository a phone asks for goes through here.
//
//   hub ─git:action (ack)─► hub-link/commands.ts (schema, this session) ─► here ─► state.ts | write.ts
//
// Invariants: git runs in `root` only, args as an array (no shell); a request that fails a check
// changes nothing; an unexpected error is an error ack, never an exception into the socket layer.
import { ackError, ackingFailures, type Ack, type GitAnswer } from '@tether/shared';
import type { z } from 'zod';
import type { GitQuerySchema } from '@tether/shared';
import { readGitState } from './state.ts';
import { withoutPrefix, write } from './write.ts';

export type GitActions = { answer(query: z.output<typeof GitQuerySchema>): Promise<Ack<GitAnswer>> };

/** `gh`: the gh binary (tests name a fake one). */
export function createGitActions(options: { root: string; gh?: string }): GitActions {
  const gh = options.gh ? { gh: options.gh } : {};
  return {
    answer: ackingFailures("git in the session's folder", async (query) => {
      const state = await readGitState({ root: options.root, ...gh });
      if (query.action === 'state') return { ok: true, ...(state.git ? withoutPrefix(state) : state) };
      if (!state.git) return ackError('bad_request', state.reason);
      const { sessionId: _id, ...request } = query;
      return await write({ root: options.root, state, ...gh }, request);
    }),
  };
}
