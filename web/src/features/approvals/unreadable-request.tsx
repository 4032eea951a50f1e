// unreadable-request.tsx: a request whose input is not the shape its form reads (a version skew):
// what came, as it came, and only the answers that guess nothing (decline, cancel).
import type { ReactNode } from 'react';
import { ClippedPre } from '../../lib/ui/clipped-pre.tsx';

export function UnreadableRequest({ input, label, children }: { input: unknown; label: string; children: ReactNode }) {
  return (
    <>
      <div className="approval-body">
        <ClippedPre text={JSON.stringify(input, null, 2)} label={label} />
      </div>
      <div className="approval-actions">{children}</div>
    </>
  );
}
