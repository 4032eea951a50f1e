// added-dirs.ts: the folders a session's agent was given beyond its own (claude and Codex
// `--add-dir`, Gemini `--include-directories`), as its runner read them from its arguments. The hub
// keeps them with the session and a resume from afar gives them to the agent again (spawn.ts
// DaemonSpawn.addedDirs): they land among the agent's arguments on that machine, so only absolute
// paths, bounded in number and length, ever travel.
import { z } from 'zod';
import { MAX_PATH_CHARS } from './limits.ts';

/** More than any real session names (each is a folder a person typed); a runner keeps the first ones. */
export const MAX_ADDED_DIRS = 32;

/** One absolute folder on the session's machine (POSIX: the daemon and runners run on Linux and macOS). */
export const AddedDirSchema = z
  .string()
  .min(1)
  .max(MAX_PATH_CHARS)
  .refine((p) => p.startsWith('/'), 'an added folder must be an absolute path')
  .refine((p) => !p.includes('\0'), 'an added folder holds no NUL');

export const AddedDirsSchema = z.array(AddedDirSchema).max(MAX_ADDED_DIRS);
export type AddedDirs = z.infer<typeof AddedDirsSchema>;
