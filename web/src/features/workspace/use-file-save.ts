// use-file-save.ts: one save of the file being edited, and what the editor shows of it: saving,
// saved, stale (the file changed since it was opened: its current text, to show the difference and
// ask), refused mid-turn (then "Save anyway" sends the same save confirmed), or failed (the reason).
// A save written re-reads the file, its folder and the changes.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileWriteAnswer } from '@tether/shared';
import { FILE_MID_TURN_REFUSAL } from '@tether/shared/wire';
import { hubApi } from '../../lib/hub.ts';
import { deviceNameFromUserAgent } from '../../lib/format.ts';
import { queryKeys } from '../../lib/queries.ts';

type Stale = Extract<FileWriteAnswer, { kind: 'stale' }>;
type Save = { text: string; base: string; confirm: boolean };
export type SaveOutcome = { kind: 'stale'; stale: Stale; save: Save } | { kind: 'mid-turn'; save: Save } | { kind: 'failed'; error: string } | null;

export function useFileSave(options: { sessionId: string; path: string; onWritten: () => void }) {
  const client = useQueryClient();
  const [outcome, setOutcome] = useState<SaveOutcome>(null);
  const mutation = useMutation({
    mutationFn: (save: Save) =>
      hubApi.saveFile({ sessionId: options.sessionId, body: { path: options.path, text: save.text, base: save.base, confirm: save.confirm, device: deviceNameFromUserAgent(navigator.userAgent) } }),
    onMutate: () => setOutcome(null),
    onSuccess: (answer, save) => {
      if (answer.kind === 'stale') {
        setOutcome({ kind: 'stale', stale: answer, save });
        return;
      }
      void client.invalidateQueries({ queryKey: queryKeys.file(options.sessionId, options.path) });
      void client.invalidateQueries({ queryKey: queryKeys.changesAll(options.sessionId) });
      options.onWritten();
    },
    onError: (error, save) => {
      const message = error instanceof Error ? error.message : String(error);
      setOutcome(message === FILE_MID_TURN_REFUSAL ? { kind: 'mid-turn', save } : { kind: 'failed', error: message });
    },
  });
  return {
    save: (save: Save) => {
      if (!mutation.isPending) mutation.mutate(save);
    },
    saving: mutation.isPending,
    outcome,
    dismiss: () => setOutcome(null),
  };
}
