// edited-note.ts: the files a person saved from the phone since the agent's last prompt, and the
// note that tells the agent so with its next prompt (its own view of those files is stale: an Edit
// that matched the old text would fail, or worse, write over the person's change).
// The note is one line in front of the prompt's text, so the agent's transcript shows the prompt as
// typed (prompt-queue.ts and headless/turns.ts match a transcript's prompt by its text). A slash
// command is left alone (a line in front would stop it being one); the note waits for a prompt.

/** Files named in one note (the rest are counted). */
const NOTE_MAX_FILES = 20;

export type EditedFiles = { add(path: string): void; noteFor(text: string): string };

export function createEditedFiles(): EditedFiles {
  const paths = new Set<string>();
  return {
    add: (path) => {
      paths.delete(path);
      paths.add(path);
    },
    noteFor: (text) => {
      if (paths.size === 0 || text.trimStart().startsWith('/')) return text;
      const all = [...paths];
      paths.clear();
      const named = all.slice(0, NOTE_MAX_FILES).join(', ');
      const more = all.length > NOTE_MAX_FILES ? ` and ${all.length - NOTE_MAX_FILES} more` : '';
      const which = all.length === 1 ? 'this file myself since your last turn, read it before you change it' : 'these files myself since your last turn, read them before you change them';
      return `(tether: I edited ${which}: ${named}${more}) ${text}`;
    },
  };
}
