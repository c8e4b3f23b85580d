/**
 * `pulumi import --file` with `inputs` and `outputs` per resource, as the engine runs it
 * since v3.254.0 (pulumi/pulumi#23984; step.go `ImportStep.Apply` at v3.254.0 L1953-2200,
 * pkg/cmd/pulumi/operations/import.go `importSpec` L181-211): with outputs given, no Read;
 * Check with olds = news = the given inputs, its result discarded and its failures only
 * warnings; the resource enters the state with the given id, inputs and outputs, protected
 * unless `--protect=false` (import.go L1326).
 */
import { checkFailureMessage } from "./diagnostics";
import { EngineRun, message } from "./engineRun";
import { withInitErrors } from "./state";
import { ImportFileResource, ImportOptions } from "./types";

/** Imports `resources` into the run's state. Resources without outputs would need a Read, which a dynamic provider cannot serve. */
export async function importResources(run: EngineRun, resources: readonly ImportFileResource[], options: ImportOptions): Promise<void> {
  for (const r of resources) {
    const urn = `urn:pulumi:${run.stack}::${run.project}::${r.type}::${r.name}`;
    if (!r.outputs || Object.keys(r.outputs).length === 0) {
      // Read with no properties: the dynamic host fails (IM1).
      run.error(urn, r.name, `${r.name}: import: a dynamic resource needs outputs in the import file (its Read carries no properties)`);
      return;
    }
    const inputs = r.inputs ?? {};
    try {
      const checked = await run.rpc(() => run.plugin.check(urn, inputs, inputs));
      if (checked.failures.length > 0) {
        // Two kinds of warning: the import's own, then each failure as Check failures are printed (step.go ImportStep.Apply).
        run.sink.add(
          "warning",
          "One or more imported inputs failed to validate. This is almost certainly a bug in the `pulumi-nodejs` provider. The import will still proceed, but you will need to edit the generated code after copying it into your program.",
          urn,
        );
        for (const f of checked.failures) run.sink.add("warning", checkFailureMessage(r.type, r.name, f.property, f.reason, inputs), urn);
      }
    } catch (e) {
      run.error(urn, r.name, message(e));
      return;
    }
    run.state.resources.push(
      withInitErrors(
        {
          urn,
          type: r.type,
          name: r.name,
          id: r.id,
          inputs: structuredClone(inputs),
          outputs: structuredClone(r.outputs),
          secretOutputs: [],
          secretInputs: [],
          dependencies: [],
          propertyDependencies: {},
          initErrors: [],
          ...((options.protect ?? true) ? { protect: true } : {}),
        },
        [],
      ),
    );
    run.step("import", urn, r.type, r.name);
  }
}
