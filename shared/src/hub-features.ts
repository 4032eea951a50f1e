// hub-features.ts: what `GET /api/config` tells the web app about the hub it talks to (and /healthz
// repeats `shell` for scripts). Everything here is something the hub owner chose or how the hub runs;
// nothing secret: the transcription endpoint's host only, never its path or key. The hub parses what
// it answers with HubFeaturesSchema once, at start; the web reads `install` with wire.ts's
// isInstallKind (zod stays off its first load, docs/decisions/web.md).
import { z } from 'zod';
import { INSTALL_KINDS } from './wire.ts';

export { INSTALL_KINDS, isInstallKind, type InstallKind } from './wire.ts';

/** How the hub's tether was installed. In a checkout `tether` is not on PATH (its `npm run tether --`
 *  script stands in), so the web's hints name the command for this kind. */
export const InstallKindSchema = z.enum(INSTALL_KINDS);

export const HubFeaturesSchema = z.object({
  /** Web shells are on (`tether hub --enable-shell`). */
  shell: z.boolean(),
  /** The host dictation is forwarded to (transcription.ts); absent when the hub has none. */
  transcription: z.object({ host: z.string().min(1).max(300) }).optional(),
  /** Absent from a hub that does not say (one embedded by a test, an older hub). */
  install: InstallKindSchema.optional(),
});
export type HubFeatures = z.infer<typeof HubFeaturesSchema>;
