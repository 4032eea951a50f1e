// hub-start-text.ts: what `tether hub` prints about the first token and the next step, in the words
// of how this tether runs (config/build.ts: `tether …`, or in a checkout `npm run tether -- …`, since
// a hint naming a command the person does not have is friction). Not a verb.
//
// Invariant: the token appears once, on a line of its own, only on the start that made it.
import { typedTether, typedTetherAnywhere } from '../config/build.ts';

/** The first start's token, once, and how to use it on this machine. */
export function firstTokenLines(options: { namespace: string; token: string; hubUrl: string }): string[] {
  const tether = typedTether();
  return [
    '',
    `first start: created an access token for namespace "${options.namespace}". It is shown only this once:`,
    '',
    `  ${options.token}`,
    '',
    `sign this machine in: ${tether} auth login --hub ${options.hubUrl} --token <the token above>`,
    `more tokens: ${tether} token create --namespace NAME`,
  ];
}

/** Every start: how a session begins. */
export function sessionLines(): string[] {
  const here = typedTether();
  const anywhere = typedTetherAnywhere();
  if (here === anywhere) return [`sessions: ${here} claude (or codex, gemini) in the folder to work in`];
  return [`sessions: ${here} claude (or codex, gemini); in another folder: ${anywhere} claude`];
}
