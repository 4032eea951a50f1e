// share-button.tsx: "Share read-only" and "Approval history" in the session header: each one button
// that opens its panel (loaded on first open, so neither costs the first load).
import { lazy, Suspense } from 'react';
import { IconShare } from '../../lib/ui/icons.tsx';
import { Disclosure } from './disclosure.tsx';
import './share.css';

const SharePanel = lazy(() => import('./share-panel.tsx').then((m) => ({ default: m.SharePanel })));
const ActivityPanel = lazy(() => import('./activity-panel.tsx').then((m) => ({ default: m.ActivityPanel })));

export function ShareButton({ sessionId }: { sessionId: string }) {
  return (
    <Disclosure
      label="Share read-only"
      title="Share read-only"
      className="icon-button"
      rootClassName="share-control"
      chip={<IconShare size={21} />}
      panel={(id) => (
        <Suspense fallback={null}>
          <SharePanel id={id} sessionId={sessionId} />
        </Suspense>
      )}
    />
  );
}

export function ActivityButton({ sessionId }: { sessionId: string }) {
  return (
    <Disclosure
      label="Approval history"
      title="Approval history"
      className="icon-button"
      rootClassName="share-control"
      chip={
        <svg width="21" height="21" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6l8-3z" />
          <path d="M8.5 12l2.5 2.5 4.5-5" />
        </svg>
      }
      panel={(id) => (
        <Suspense fallback={null}>
          <ActivityPanel id={id} sessionId={sessionId} />
        </Suspense>
      )}
    />
  );
}
