// local-commands.ts: a slash command run inside claude and what it printed, paired from the
// transcript. claude records the command and its output as two lines: user lines in 2.1.197,
// `system`/`local_command` or user lines in 2.1.33x; the output's parentUuid names the command's line.
//
//   {uuid: A, content: "<command-name>/model</command-name>…<command-args>sonnet</command-args>"}
//   {parentUuid: A, content: "<local-command-stdout>Set model to `Sonnet 5.5` …</local-command-stdout>"}
//     → { name: '/model', args: 'sonnet', output: 'Set model to `Sonnet 5.5` …' }
//
// Why: `/model` behind "Switch model?" may be refused ("Kept model as `Opus 5.5`"), so the runner
// takes a model change from what claude printed, not from having typed the command.

export type LocalCommandRun = { name: string; args: string; output: string };

export type LocalCommandReader = {
  /** The runs whose output is among `lines` (the command may have come in an earlier batch). */
  take(lines: readonly string[]): LocalCommandRun[];
};

const NAME_RE = /<command-name>([\s\S]*?)<\/command-name>/;
const ARGS_RE = /<command-args>([\s\S]*?)<\/command-args>/;
const STDOUT_RE = /<local-command-stdout>([\s\S]*?)<\/local-command-stdout>/;
/** Commands remembered while their output has not come yet. */
const KEPT = 20;

type Rec = Record<string, unknown>;
const isRec = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a user or system line: a string content, or its text blocks joined. */
function lineText(rec: Rec): string | null {
  const content = rec.type === 'system' ? rec.content : isRec(rec.message) ? rec.message.content : undefined;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  return content.map((block) => (isRec(block) && typeof block.text === 'string' ? block.text : '')).join('');
}

export function createLocalCommandReader(): LocalCommandReader {
  const commands = new Map<string, { name: string; args: string }>();
  let last: string | null = null;
  return {
    take(lines) {
      const runs: LocalCommandRun[] = [];
      for (const line of lines) {
        // Cheap filter first: most lines are neither.
        if (!line.includes('<command-name>') && !line.includes('<local-command-stdout>')) continue;
        let rec: unknown;
        try {
          rec = JSON.parse(line);
        } catch {
          continue; // the chat parser reports malformed lines
        }
        if (!isRec(rec) || (rec.type !== 'user' && rec.type !== 'system') || rec.isSidechain === true) continue;
        const text = lineText(rec);
        if (text === null) continue;
        const name = NAME_RE.exec(text)?.[1]?.trim();
        if (name && typeof rec.uuid === 'string') {
          commands.set(rec.uuid, { name: name.startsWith('/') ? name : `/${name}`, args: ARGS_RE.exec(text)?.[1]?.trim() ?? '' });
          if (commands.size > KEPT) commands.delete(commands.keys().next().value!);
          last = rec.uuid;
          continue;
        }
        const output = STDOUT_RE.exec(text)?.[1];
        if (output === undefined) continue;
        const key = typeof rec.parentUuid === 'string' && commands.has(rec.parentUuid) ? rec.parentUuid : last;
        const command = key ? commands.get(key) : undefined;
        if (!command || !key) continue;
        commands.delete(key);
        if (last === key) last = null;
        runs.push({ ...command, output: output.trim() });
      }
      return runs;
    },
  };
}

/** Where claude marks the model it names: backticks (2.1.33x), bold (2.1.197, `ESC[1m…ESC[22m`). */
const MARKED_RE = /`([^`]+)`|\x1b\[1m([^\x1b]+)\x1b\[22m/;

/** The model a `/model <name>` run switched to: `<name>` when the model claude names in its output
 *  ("Set model to `Sonnet 5.5`") shares a word with it; null when claude kept another one ("Kept
 *  model as `Opus 5.5`") or the run is not a `/model` with a name. An output that marks no name is
 *  read whole. */
export function modelSetBy(run: LocalCommandRun): string | null {
  if (run.name !== '/model' || run.args === '') return null;
  const marked = MARKED_RE.exec(run.output);
  const named = marked ? (marked[1] ?? marked[2] ?? '') : run.output;
  const words = (value: string) => new Set(value.toLowerCase().split(/[^a-z]+/).filter((word) => word.length >= 3));
  const asked = words(run.args);
  return [...words(named)].some((word) => asked.has(word)) ? run.args : null;
}
