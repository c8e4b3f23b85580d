/** What the emulator writes to its data directory. */
import type { ModelState } from "../model/records";

/** Current snapshot format version. */
export const SNAPSHOT_VERSION = 1;

/** Everything needed to resume after a restart. */
export interface Snapshot {
  /** Format version, {@link SNAPSHOT_VERSION}. */
  version: number;
  /** The default project (PAT and OAuth). */
  projectId: string;
  /** The second project (OAuth only). */
  secondProjectId: string;
  /** When the credentials were issued, epoch milliseconds. */
  credentialsCreatedAt: number;
  /** How far the control path has moved the clock, milliseconds. */
  clockOffsetMs: number;
  /** The resources. */
  model: ModelState;
}
