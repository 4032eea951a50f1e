// devices-menu-item.tsx: "Devices" in the account menu. Choosing it closes the menu (the account
// menu closes on any menu item) and opens the dialog (devices-dialog.tsx), which the shell keeps
// outside the menu so that it outlives it.
import { IconDevices } from '../../lib/ui/icons.tsx';

export function DevicesMenuItem({ onOpen }: { onOpen: () => void }) {
  return (
    <button type="button" role="menuitem" className="menu-item" aria-haspopup="dialog" onClick={onOpen}>
      <IconDevices size={18} />
      Devices
    </button>
  );
}
