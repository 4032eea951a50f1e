// share-button.tsx: "Share read-only" and "Approval history" in the session header: each one button
// that opens its panel (loaded on first open, so neither costs the first load).
import type { ReactNode } from 'react';
import { lazyPart } from '../../lib/ui/lazy-part.tsx';
import { IconShare } from '../../lib/ui/icons.tsx';
import { Disclosure } from './disclosure.tsx';
import './share.css';

const SharePanel = lazyPart(() => import('./share-panel.tsx').then((m) => m.SharePanel));
const ActivityPanel = lazyPart(() => import('./activity-panel.tsx').then((m) => m.ActivityPanel));

/** A header button named by its label (also its tooltip) whose panel loads on first open. */
function PanelButton({ label, chip, panel }: { label: string; chip: ReactNode; panel: (id: string) => ReactNode }) {
  return <Disclosure label={label} title={label} className="icon-button" rootClassName="share-control" chip={chip} panel={panel} />;
}

export function ShareButton({ sessionId }: { sessionId: string }) {
  return <PanelButton label="Share read-only" chip={<IconShare size={21} />} panel={(id) => <SharePanel id={id} sessionId={sessionId} />} />;
}

export function ActivityButton({ sessionId }: { sessionId: string }) {
  return (
    <PanelButton
      label="Approval history"
      chip={
        <svg width="21" height="21" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6l8-3z" />
          <path d="M8.5 12l2.5 2.5 4.5-5" />
        </svg>
      }
      panel={(id) => <ActivityPanel id={id} sessionId={sessionId} />}
    />
  );
}
