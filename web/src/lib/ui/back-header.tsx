// back-header.tsx: the header of a screen of its own (New session, a machine): Back to the session
// list (hidden beside the list on a wide screen), the screen's title, what goes under it, and its own
// buttons after. A session's header is one too. Styled by features/sessions/session-screen.css (on the first load).
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { IconBack } from './icons.tsx';

/** `below`: what goes under the title (a line of facts); `className`: the header's own modifier. */
export function BackHeader({ title, below, className, children }: { title: string; below?: ReactNode; className?: string; children?: ReactNode }) {
  return (
    <header className={className ? `session-header ${className}` : 'session-header'}>
      <Link to="/" className="icon-button back-button" aria-label="Back to sessions">
        <IconBack size={24} />
      </Link>
      <div className="session-header-text">
        <h1 className="session-header-title">{title}</h1>
        {below}
      </div>
      {children}
    </header>
  );
}
