// schedules-menu-item.tsx: "Schedules" in the account menu: opens /schedules (the menu closes on any item).
import { Link } from '@tanstack/react-router';
import { IconResume } from '../../lib/ui/icons.tsx';

export function SchedulesMenuItem() {
  return (
    <Link to="/schedules" role="menuitem" className="menu-item">
      <IconResume size={18} />
      Schedules
    </Link>
  );
}
