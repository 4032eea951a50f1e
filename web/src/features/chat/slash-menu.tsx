// slash-menu.tsx: the list of slash commands above the composer while its text is `/` and a command
// name (slash-filter.ts). The composer keeps the focus in its text box and points at the active option
// with aria-activedescendant (arrows move, Enter or Tab insert, Esc closes); a tap inserts too. The
// text box stays a text box (aria-autocomplete="list", aria-controls this listbox): a multi-line
// message box announced as a combobox would mislead, and HTML allows no combobox role on a textarea.
import type { SlashCommand } from '@tether/shared';

export const SLASH_MENU_ID = 'composer-slash-menu';
export const slashOptionId = (index: number) => `${SLASH_MENU_ID}-${index}`;

const SOURCE_WORDS: Record<SlashCommand['source'], string | null> = {
  builtin: null,
  claude: null,
  project: 'project',
  user: 'yours',
  plugin: 'plugin',
};

export function SlashMenu(props: {
  commands: SlashCommand[];
  active: number;
  /** PTY: a command that opens claude's own picker says so. */
  pty: boolean;
  state: 'loading' | 'error' | 'ready';
  onPick: (command: SlashCommand) => void;
  onHover: (index: number) => void;
}) {
  const { commands, active } = props;
  const empty = props.state === 'loading' ? 'Loading commands…' : props.state === 'error' ? "Couldn't load this session's commands." : 'No command matches.';
  return (
    <div className="slash-menu">
      {commands.length === 0 ? (
        <p className="slash-empty">{empty}</p>
      ) : (
        <ul id={SLASH_MENU_ID} role="listbox" aria-label="Slash commands" className="slash-list">
          {commands.map((command, index) => {
            const source = SOURCE_WORDS[command.source];
            return (
              <li
                key={command.name}
                id={slashOptionId(index)}
                role="option"
                aria-selected={index === active}
                className="slash-option"
                // The text box keeps the focus: a press must not take it away before the click.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => index !== active && props.onHover(index)}
                onClick={() => props.onPick(command)}
              >
                <span className="slash-line">
                  <span className="slash-name">/{command.name}</span>
                  {command.argumentHint ? <span className="slash-hint">{command.argumentHint}</span> : null}
                  {source ? <span className="slash-source">{source}</span> : null}
                </span>
                {command.description ? <span className="slash-description">{command.description}</span> : null}
                {props.pty && command.opensPicker ? <span className="slash-picker">Opens claude's picker in the terminal</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
