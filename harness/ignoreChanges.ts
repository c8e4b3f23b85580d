/**
 * `ignoreChanges` as the engine applies it before Check (pkg/resource/deploy/step_generator.go
 * `processIgnoreChanges` L2838-2858, v3.248.0): for each property path, the value at that
 * path in the new inputs is reset to the value at the same path in the old inputs
 * (`PropertyPath.Reset`, see propertyPath.ts); when the old inputs have nothing there, the
 * key is deleted from the new ones, nested paths whose parent the old inputs lack included.
 */
import { parsePath, resetPath } from "./propertyPath";
import { JsonObject } from "./protos";

/**
 * The new inputs with every ignored path reset to the old inputs. Returns the paths the engine
 * could not apply (reported once as an info diagnostic, the others still apply).
 */
export function processIgnoreChanges(
  news: JsonObject,
  olds: JsonObject,
  paths: readonly string[],
): { inputs: JsonObject; failed: string[] } {
  const inputs = structuredClone(news);
  const failed: string[] = [];
  for (const p of paths) {
    const parsed = parsePath(p);
    if (!parsed) continue;
    if (!resetPath(parsed, olds, inputs)) failed.push(p);
  }
  return { inputs, failed };
}
