// use-git-action.ts: one git write from the Changes view (stage, unstage, commit, push, pull
// request) and what the panel shows of it: busy, done (the runner's sentence), failed (the hub's or
// runner's reason), or refused mid-turn (then "Do it anyway" sends the same request confirmed).
// A write's answer carries the index's state after it; the diffs and the history are re-read.
// The write under way is this hook's own state, set in the click's handler: the mutation's pending
// state reaches React a macrotask later, and a controlled checkbox rendered in between went back to
// its old state (a stage toggle flickered off, and a second click could start a second write).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GitDone, GitWrite } from '@tether/shared';
import { GIT_MID_TURN_REFUSAL } from '@tether/shared/wire';
import { hubApi } from '../../lib/hub.ts';
import { deviceNameFromUserAgent } from '../../lib/format.ts';
import { queryKeys } from '../../lib/queries.ts';

export type GitOutcome = { kind: 'done'; done: GitDone } | { kind: 'failed'; error: string } | { kind: 'mid-turn'; request: GitWrite } | null;

export function useGitAction(sessionId: string, onDone?: (done: GitDone) => void) {
  const client = useQueryClient();
  const [outcome, setOutcome] = useState<GitOutcome>(null);
  const [pending, setPending] = useState<GitWrite | null>(null);
  const mutation = useMutation({
    mutationFn: (input: { request: GitWrite; confirm: boolean }) =>
      hubApi.gitAction({ sessionId, body: { ...input.request, confirm: input.confirm, device: deviceNameFromUserAgent(navigator.userAgent) } }),
    onMutate: () => setOutcome(null),
    onSuccess: (done) => {
      client.setQueryData(queryKeys.gitState(sessionId), done.state);
      if (done.action === 'commit') void client.invalidateQueries({ queryKey: queryKeys.changesAll(sessionId) });
      void client.invalidateQueries({ queryKey: queryKeys.audit(sessionId) });
      setOutcome({ kind: 'done', done });
      onDone?.(done);
    },
    onError: (error, input) => {
      const message = error instanceof Error ? error.message : String(error);
      setOutcome(message === GIT_MID_TURN_REFUSAL ? { kind: 'mid-turn', request: input.request } : { kind: 'failed', error: message });
    },
    onSettled: () => setPending(null),
  });
  // From the click until the mutation's own state says it is over: the answer's index state and the
  // mutation's end reach React in the same batch, after `pending` is cleared.
  const underWay = pending ?? (mutation.isPending ? mutation.variables.request : null);
  return {
    run: (request: GitWrite, confirm = false) => {
      if (underWay) return;
      setPending(request);
      mutation.mutate({ request, confirm });
    },
    /** Which action is under way (its button says so), or null. */
    busy: underWay?.action ?? null,
    /** The request under way (a stage toggle shows its new state until the answer). */
    pending: underWay,
    outcome,
  };
}
