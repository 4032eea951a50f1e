// rule-words.ts: what a rule proposal says to the person (project-rules.ts has the rules themselves):
// the prefixes they may pick and what a rule really allows. Imports nothing, so the web's session
// list shows a proposal without loading the zod schemas (~200 ms of a slow phone's CPU to set up;
// docs/decisions/web.md, "Opening a session"); `@tether/shared/rule-words`.

/** The prefixes a person may pick for a command: its leading words, shortest first, never the whole. */
export function prefixChoices(command: string): string[] {
  const words = command.split(/\s+/).filter(Boolean);
  return words.slice(0, -1).map((_, i) => words.slice(0, i + 1).join(' '));
}

/** Commands that run what a file of the project says, which the agent can edit: the rule allows
 *  whatever it writes there. */
const RUNS_PROJECT_FILES: ReadonlyArray<{ first: RegExp; what: string }> = [
  { first: /^(npm|pnpm|yarn|bun|npx|bunx)$/, what: "the scripts in the project's package.json" },
  { first: /^(make|just|rake|task)$/, what: "the project's Makefile (or justfile, Rakefile, Taskfile)" },
  { first: /^(cargo|go|mvn|gradle|\.\/gradlew|dotnet|swift)$/, what: "the project's build files and the code they compile" },
  { first: /^(python3?|node|deno|ruby|perl|php|sh|bash|zsh|pytest|tox|nox)$/, what: 'the files of the project it runs' },
  { first: /^\.{0,2}\//, what: 'that file of the project' },
];

/** What a rule really allows, in one or two sentences for the proposal. */
export function ruleCaveat(options: { ruleContent: string; folder: string }): string {
  const prefix = options.ruleContent.endsWith(':*');
  const command = prefix ? options.ruleContent.slice(0, -2) : options.ruleContent;
  const first = command.split(/\s+/)[0] ?? '';
  const runs = RUNS_PROJECT_FILES.find((entry) => entry.first.test(first));
  const scope = prefix ? `\`${command}\` with any arguments after it` : `exactly \`${command}\``;
  const base = `Claude will run ${scope} in ${options.folder} without asking anyone, at the desk too, until you revoke it.`;
  return runs ? `${base} What it runs is whatever ${runs.what} say, and the agent can edit those: the rule allows whatever it writes there.` : base;
}
