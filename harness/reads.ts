/**
 * `Resource.get` (a ReadResource: sg `GenerateReadSteps` L271-369, st `ReadStep.Apply`
 * L1270-1365, v3.248.0) and the `import` resource option (st `ImportStep.Apply` L1805-2042),
 * as one {@link Deployment} handles them.
 */
import type { Deployment } from "./deployment";
import { message, EngineDied } from "./engineRun";
import { JsonObject } from "./protos";
import { ReadRequest, RegisterRequest, RegisterResponse, RegistrationError } from "./registration";
import { secretOutputKeys, unwrapProperties, wrapSecrets } from "./secrets";
import { Cancelled } from "./stepExecutor";
import { UNKNOWN } from "./types";

/**
 * A ReadResource: Read with properties = inputs = the given props; an unknown id in preview
 * sends nothing; a found-or-not answer is taken as found (the host always returns
 * `__provider`), keeping the requested id. Read resources are external: never deleted.
 */
export async function readResource(d: Deployment, urn: string, req: ReadRequest): Promise<{ urn: string; properties: JsonObject }> {
  if (d.failed) throw d.halted(req.name);
  d.readsSeen.add(urn);
  if (!req.id) {
    const msg = `Expected an ID for ${urn}`;
    d.error(urn, req.name, msg);
    d.bail();
    throw new RegistrationError(msg);
  }
  if (req.id === UNKNOWN) return { urn, properties: {} };
  const { props, secretKeys } = unwrapProperties(req.properties);
  let properties: JsonObject = {};
  const submitted = await d.exclusive(async () => {
    const s = d.executor.submit([
      async () => {
        let res;
        try {
          res = await d.rpc(() => d.plugin.read(urn, req.id, props, props));
        } catch (e) {
          if (!(e instanceof EngineDied)) d.error(urn, req.name, message(e));
          throw e;
        }
        properties = res.properties;
        const secretOutputs = secretOutputKeys(req.additionalSecretOutputs, secretKeys, properties);
        d.state.reads = d.state.reads.filter((r) => r.urn !== urn);
        d.state.reads.push({
          urn,
          type: req.type,
          name: req.name,
          id: res.id || req.id,
          inputs: props,
          outputs: properties,
          secretOutputs,
        });
        d.step("read", urn, req.type, req.name);
      },
    ]);
    await s.taken;
    return s;
  });
  try {
    await submitted.done;
  } catch (e) {
    throw e instanceof Cancelled ? d.halted(req.name) : new RegistrationError(message(e));
  }
  const entry = d.state.reads.find((r) => r.urn === urn)!;
  return { urn, properties: wrapSecrets(properties, entry.secretOutputs) };
}

/** The `import` option: a Read with no properties, which the dynamic host cannot serve. */
export async function importChain(d: Deployment, urn: string, req: RegisterRequest): Promise<() => Promise<RegisterResponse>> {
  try {
    await d.rpc(() => d.plugin.read(urn, req.importId, {}, {}));
    throw new Error("provider does not support importing resources; please try updating the provider plugin");
  } catch (e) {
    const msg = message(e);
    d.error(urn, req.name, msg);
    d.bail();
    throw new RegistrationError(msg);
  }
}
