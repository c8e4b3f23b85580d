/** Where the upgrade fixtures live and what every one of them shares. */
import * as path from "path";

/** The emulator project every fixture was recorded in. */
export const FIXTURE_PROJECT_ID = "upgrade001";
/** What stands for the API URL in a checkpoint (each run's emulator has a port of its own). */
export const API_URL_PLACEHOLDER = "<api-url>";
/** The config keys set with `--secret`. */
export const FIXTURE_SECRET_KEYS = ["clouddb:apiKey", "upgrade:dbPassword"] as const;

/** The folder of one release's fixture. */
export function fixtureDir(version: string): string {
  return path.join(__dirname, "fixtures", version);
}
