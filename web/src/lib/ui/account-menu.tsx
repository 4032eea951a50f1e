// account-menu.tsx: who is signed in (the namespace) and the Log out action, behind one button.
// A small disclosure menu: Escape or a click outside closes it, focus returns to the button.
import type { ReactNode } from 'react';
import { usePopover } from './use-popover.ts';
import { getLogin, logout } from '../hub.ts';
import { IconLogout } from './icons.tsx';
import './account-menu.css';

/** Logging out changes the stored login; the route guard sees that and shows the login screen. */
/** `extra`: more menu items from outside lib (the notifications switch lives with the service worker). */
export function AccountMenu({ extra }: { extra?: ReactNode } = {}) {
  const { open, setOpen, panelId: menuId, rootRef, triggerProps } = usePopover();
  const namespace = getLogin()?.namespace ?? '';

  return (
    <div className="account" ref={rootRef}>
      <button
        {...triggerProps('menu')}
        className="icon-button account-button"
        aria-label="Account"
      >
        <span className="avatar" aria-hidden="true">
          {namespace.slice(0, 1).toUpperCase() || '?'}
        </span>
      </button>
      {open ? (
        <div
          className="menu"
          id={menuId}
          role="menu"
          aria-label="Account"
          // An action chosen (a menu item, not a switch) closes the menu; what it opens outlives it.
          onClick={(event) => {
            if ((event.target as Element).closest('[role="menuitem"]')) setOpen(false);
          }}
        >
          <div className="menu-caption">
            Signed in to <strong>{namespace}</strong>
          </div>
          {extra}
          <button
            type="button"
            role="menuitem"
            className="menu-item menu-item-danger"
            onClick={() => void logout()}
          >
            <IconLogout size={18} />
            Log out
          </button>
        </div>
      ) : null}
    </div>
  );
}
