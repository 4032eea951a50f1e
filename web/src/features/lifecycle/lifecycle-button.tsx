// lifecycle-button.tsx: the session header's lifecycle slot: End (with its confirmation) while the
// session lives, Resume once it has ended or failed. `reviewsQuestion`: the route's slot for the End
// dialog's question about live reviews (features/reviews draws it).
import { isFinalStatus } from '@tether/shared/wire';
import type { Session } from '@tether/shared';
import { EndSessionButton, type ReviewsQuestionSlot } from './end-dialog.tsx';
import { ResumeButton } from './resume-controls.tsx';

export function LifecycleButton({ session, reviewsQuestion }: { session: Session; reviewsQuestion?: ReviewsQuestionSlot }) {
  return isFinalStatus(session.status) ? <ResumeButton session={session} /> : <EndSessionButton session={session} reviewsQuestion={reviewsQuestion} />;
}
