/**
 * Each resource type served natively under `clouddb:index:<Kind>`: the gRPC-shaped calls
 * (server.ts, provider.ts) translated to and from the core's requests (framework/core.ts,
 * the very core the dynamic providers serve), and nothing more. Every rule, operation,
 * message and preview is the core's; what the engine tells the plugin about a call is a
 * field of the request: the owner (from the URN), the preview flag, the engine's timeout.
 * What this translator adds is what the native protocol carries and the dynamic one cannot:
 *
 * - the changed keys and a detailed diff (detailedDiff.ts), so that the engine applies
 *   `replaceOnChanges` and shows what changes;
 * - secrets: every secret output and input is marked secret in what it returns, partial
 *   failures included;
 * - Read with an id alone (`pulumi import`), which records the inputs read back;
 * - values in the native SDKs' form (valueForms.ts: a service's size is an integer there, 0
 *   for the shared plan): turned to the core's as they arrive, and back as they leave.
 *
 * The inputs only the dynamic providers take (`timeouts`, `settings`) are not served: the core
 * gets the native schema (framework/schema.ts `nativeSchema`), and the engine's
 * `customTimeouts` and explicit provider instances do the same. State that records them (the
 * dynamic providers', plugin 0.2.0's) plans no change for their absence (framework/core.ts).
 *
 * State written by the dynamic providers (a migration, through the schema's aliases) carries
 * `__provider` and `__owner`: they are dropped from what is returned, and read as nothing.
 */
import { isDeepStrictEqual } from "util";
import { checkInputs } from "../framework/check";
import { CloudStateError, ProviderErrorCode, ResourceInitError, scrubbed, unimportable } from "../framework/errors";
import { ADOPTED_KEY } from "../framework/adoption";
import { AUTONAMED_KEY, INTERNAL_KEYS, PROVIDER_KEY } from "../framework/internalInputs";
import { GIVEN_INPUTS_KEY } from "../framework/refreshedInputs";
import type { CoreProvider } from "../framework/coreProvider";
import { coreProvider } from "../framework/core";
import { inputsReadBack, nativeSchema, secretInputs, secretOutputs, type ResourceSchema } from "../framework/schema";
import type { RegisteredResource } from "../resources/registration";
import { detailedDiff, type NativeDiff } from "./detailedDiff";
import { WiredInitError } from "./errors";
import { forEngine, type Failure } from "./failures";
import type { Bag } from "./protos";
import { ownerOf } from "./urns";
import { resourceForms, type BagForms, type ResourceForms } from "./valueForms";
import { toWire, type Wired } from "./wire";

/** Values to send, and which of their keys are secret. */
export interface Out {
  readonly props: Bag;
  readonly secrets: Iterable<string>;
}

export type { Failure } from "./failures";

/**
 * Keys of the framework's own inputs that are no output, and the names of the inputs given
 * that the dynamic providers record (the engine gives this plugin's Read the old inputs):
 * dropped from every output (and from a migrated state's).
 */
const NOT_OUTPUTS: ReadonlySet<string> = new Set([...INTERNAL_KEYS, GIVEN_INPUTS_KEY]);

/** A property bag from what Pulumi's dynamic types leave untyped (`any`); `{}` for anything else. */
function bag(value: unknown): Bag {
  return value !== null && typeof value === "object" ? (value as Bag) : {};
}

/** Every string in `value`, at any depth. */
function textsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(textsIn);
  return [];
}

/** `props` without the framework's inputs (`__provider`, `__owner`, ...). */
function outputsOnly(props: Bag): Bag {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !NOT_OUTPUTS.has(k)));
}

/** `props` without what the engine's inputs never hold here (`__owner` comes from the URN; `__provider` from a migrated state). */
function inputsOnly(props: Bag): Bag {
  return Object.fromEntries(Object.entries(props).filter(([k]) => k === AUTONAMED_KEY || !NOT_OUTPUTS.has(k)));
}

/** `wired` with its values in the core's form. */
function inCoreForm(wired: Wired, forms: BagForms): Wired {
  return { props: forms.fromNative(wired.props), secrets: wired.secrets };
}

/** One resource type, served natively. */
export class NativeResource {
  /** The type token, `clouddb:index:<Kind>`. */
  readonly token: string;
  /** The type's name, `Service`. */
  readonly kind: string;
  private readonly schema: ResourceSchema;
  private readonly core: CoreProvider;
  private readonly secretKeys: ReadonlySet<string>;
  private readonly forms: ResourceForms;

  /** @param registered the type, as the registry lists it */
  constructor(registered: RegisteredResource) {
    const { definition } = registered;
    const full = definition.schema as ResourceSchema;
    this.schema = nativeSchema(full);
    this.kind = this.schema.kind;
    this.token = `clouddb:index:${this.kind}`;
    this.core = coreProvider({ ...definition, schema: this.schema });
    // The full schema's: `settings` that older state records stays secret.
    this.secretKeys = new Set([...secretOutputs(full), ...secretInputs(full)]);
    this.forms = resourceForms(registered);
  }

  /** The keys to mark secret: the schema's secret inputs and outputs, and whatever arrived secret. */
  private secrets(arrived: ReadonlySet<string>): Set<string> {
    return new Set([...this.secretKeys, ...arrived]);
  }

  /**
   * Checks the inputs: the core's `check`, told the owner from the URN (for a name it
   * makes up). An input the program gave as a secret is one to `check` (its
   * value never quoted), and no failure hands the engine a property whose value it would print
   * holding a secret (failures.ts).
   */
  async check(urn: string, oldsWired: Wired, newsWired: Wired): Promise<{ inputs: Out; failures: Failure[] }> {
    const [olds, news] = [inCoreForm(oldsWired, this.forms.inputs), inCoreForm(newsWired, this.forms.inputs)];
    const r = await this.core.check({
      olds: inputsOnly(olds.props),
      news: inputsOnly(news.props),
      owner: ownerOf(urn, this.kind),
      secretInputs: news.secrets,
    });
    const inputs = this.forms.inputs.toNative(inputsOnly(r.inputs));
    return { inputs: { props: inputs, secrets: this.secrets(news.secrets) }, failures: forEngine(r.failures ?? [], news, this.secretKeys) };
  }

  /**
   * Compares the recorded outputs with the new inputs: the framework's `diff`, with the changed
   * keys and paths. State that still carries the dynamic providers' `__provider` is being moved
   * to this plugin: the old half of a replacement is then deleted by them, not here.
   */
  async diff(id: string, olds: Wired, news: Wired): Promise<NativeDiff> {
    const written = outputsOnly(olds.props);
    const recorded = this.forms.outputs.fromNative(written);
    const movingToNative = PROVIDER_KEY in olds.props;
    const desired = this.forms.inputs.fromNative(inputsOnly(news.props));
    const d = detailedDiff(await this.core.diff({ id, olds: recorded, news: desired, movingToNative }), recorded);
    // State that records a value in another form than the native SDKs' (0.2.0's `"shared"`) is
    // an update that sends nothing and records it so: a program reads its outputs typed.
    const inOtherForm = !isDeepStrictEqual(this.forms.outputs.toNative(recorded), written);
    return inOtherForm ? { ...d, changes: true } : d;
  }

  /** Creates the resource (or, in a preview, says what it will have). */
  async create(urn: string, newsWired: Wired, preview: boolean, timeout: number): Promise<{ id: string; outs: Out }> {
    const news = inCoreForm(newsWired, this.forms.inputs);
    const secrets = this.secrets(news.secrets);
    try {
      const r = await this.core.create({
        news: inputsOnly(news.props),
        owner: ownerOf(urn, this.kind),
        preview,
        engineTimeoutSeconds: timeout,
      });
      return { id: r.id, outs: { props: this.forms.outputs.toNative(outputsOnly(r.outs)), secrets } };
    } catch (e) {
      throw this.wired(e, news, secrets);
    }
  }

  /**
   * Reads the live resource. With an id alone (`pulumi import`), it records the inputs a
   * program declaring it as it is gives, and that the stack made it (it is no adoption); an
   * answer whose inputs read back `check` refuses (a value it does not show readably) is
   * imported not at all, the error naming each.
   */
  async read(id: string, propsWired: Wired, inputsWired: Wired): Promise<{ id: string; outs?: Out; inputs?: Out }> {
    const [props, inputs] = [inCoreForm(propsWired, this.forms.outputs), inCoreForm(inputsWired, this.forms.inputs)];
    const importing = Object.keys(props.props).length === 0 && Object.keys(inputs.props).length === 0;
    const r = await this.core.read({ id, props: outputsOnly(props.props), oldInputs: importing ? undefined : inputsOnly(inputs.props) });
    if (!r.id) return { id: "" };
    const outs = outputsOnly(bag(r.props));
    if (importing) outs[ADOPTED_KEY] = false;
    const ins = importing ? inputsReadBack(this.schema, outs) : r.inputs === undefined ? inputsOnly(inputs.props) : bag(r.inputs);
    // An import records only what a program could declare: an answer that does not show it readably records nothing.
    const refused = importing ? unimportable(`clouddb.${this.kind} ${id}`, checkInputs(this.schema, ins)) : undefined;
    if (refused !== undefined) throw new CloudStateError(refused, ProviderErrorCode.Unreadable);
    return {
      id: r.id,
      outs: { props: this.forms.outputs.toNative(outs), secrets: this.secrets(props.secrets) },
      inputs: { props: this.forms.inputs.toNative(ins), secrets: this.secrets(inputs.secrets) },
    };
  }

  /** Updates the resource (or, in a preview, says what it will have). */
  async update(urn: string, id: string, oldsWired: Wired, newsWired: Wired, preview: boolean, timeout: number): Promise<{ outs: Out }> {
    const [olds, news] = [inCoreForm(oldsWired, this.forms.outputs), inCoreForm(newsWired, this.forms.inputs)];
    const secrets = this.secrets(news.secrets);
    try {
      const owner = ownerOf(urn, this.kind);
      const r = await this.core.update({
        id,
        olds: outputsOnly(olds.props),
        news: inputsOnly(news.props),
        owner,
        preview,
        engineTimeoutSeconds: timeout,
      });
      return { outs: { props: this.forms.outputs.toNative(outputsOnly(r.outs)), secrets } };
    } catch (e) {
      throw this.wired(e, news, secrets);
    }
  }

  /**
   * Deletes the resource; an adopted one stays in the cloud (the framework's rule, told under
   * the resource), and so does one whose recorded inputs adopt it (`oldInputs`, which the
   * engine sends: state of 0.1.0 records adoption there alone).
   */
  async delete(id: string, props: Wired, timeout: number, oldInputs?: Wired): Promise<void> {
    const recorded = this.forms.outputs.fromNative(outputsOnly(props.props));
    const inputs = oldInputs && this.forms.inputs.fromNative(oldInputs.props);
    await this.core.delete({ id, props: recorded, oldInputs: inputs, engineTimeoutSeconds: timeout });
  }

  /**
   * A partial failure for the wire: the core's properties (the timeouts as the program wrote
   * them, not the engine's bound), without the framework's inputs, and every
   * secret wrapped (a create that timed out knows the password). Any other error scrubbed of
   * every input that arrived secret (the framework scrubs those its schema declares secret).
   */
  private wired(e: unknown, news: Wired, secrets: ReadonlySet<string>): unknown {
    if (!ResourceInitError.isInstance(e))
      return scrubbed(
        e,
        [...news.secrets].flatMap((k) => textsIn(news.props[k])),
      );
    const { outputs, inputs } = this.forms;
    return new WiredInitError(
      e.id,
      toWire(outputs.toNative(outputsOnly(e.properties)), secrets),
      toWire(inputs.toNative(inputsOnly(news.props)), secrets),
      e.message,
    );
  }
}
