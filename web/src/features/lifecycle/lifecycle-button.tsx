// lifecycle-button.tsx: the session header's lifecycle slot: End (with its confirmation) while the
// session lives, Resume once it has ended or failed.
import { isFinalStatus } from '@tether/shared/wire';
import type { Session } from '@tether/shared';
import { EndSessionButton } from './end-dialog.tsx';
import { ResumeButton } from './resume-controls.tsx';

export function LifecycleButton({ session }: { session: Session }) {
  return isFinalStatus(session.status) ? <ResumeButton session={session} /> : <EndSessionButton session={session} />;
}
