/**
 * The resource monitor handed to `pulumi.runtime.setMockOptions`: it receives the SDK's real
 * RegisterResourceRequest / ReadResourceRequest / RegisterResourceOutputsRequest messages and
 * passes them, decoded, to a {@link Deployment}. It tracks its in-flight calls.
 */
import { Deployment } from "./deployment";
import { message } from "./engineRun";
import { fromStruct, grpc, provpb, respb, toStruct } from "./protos";
import type { AliasSpec } from "./registration";

type Callback<T> = (err: Error | null, res?: T) => void;
type RegisterReq = InstanceType<typeof respb.RegisterResourceRequest>;
type ReadReq = InstanceType<typeof respb.ReadResourceRequest>;
type OutputsReq = InstanceType<typeof respb.RegisterResourceOutputsRequest>;
type FeatureReq = InstanceType<typeof respb.SupportsFeatureRequest>;

/** Features the harness's engine supports. `outputValues` and resource references are off, as for dynamic providers. */
const FEATURES: Record<string, boolean> = {
  secrets: true,
  resourceReferences: false,
  outputValues: false,
  deletedWith: false,
  replaceWith: false,
  aliasSpecs: true,
  transforms: false,
  invokeTransforms: false,
  parameterization: false,
  resourceHooks: false,
  errorHooks: false,
};

/** The registration's property dependencies: input key to the URNs its value came from. */
function propertyDependenciesOf(req: RegisterReq): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((deps, key) => {
    out[key] = deps.getUrnsList();
  });
  return out;
}

/** The registration's `aliases` (sent as specs: the harness supports `aliasSpecs`). */
function aliasesOf(req: RegisterReq): AliasSpec[] {
  return req.getAliasesList().map((a) => {
    const spec = a.getSpec();
    if (!spec) return { urn: a.getUrn() };
    return {
      name: spec.getName(),
      type: spec.getType(),
      stack: spec.getStack(),
      project: spec.getProject(),
      ...(spec.getParenturn() ? { parentUrn: spec.getParenturn() } : {}),
      noParent: spec.getNoparent(),
    };
  });
}

/** A mock resource monitor that runs the engine's step rules through a {@link Deployment}. */
export class HarnessMonitor {
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly deployment: Deployment) {}

  private track<T>(work: () => Promise<T>, cb: Callback<T>): void {
    const p = work().then(
      (res) => cb(null, res),
      // A fresh Error without a gRPC code: the SDK must not take it for a monitor shutdown.
      (e: unknown) => cb(new Error(message(e))),
    );
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  /** Resolves when no monitor call is in flight (checked repeatedly until quiet). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** True when no monitor call is in flight. */
  quiet(): boolean {
    return this.inflight.size === 0;
  }

  /** RegisterResource. */
  registerResource(req: RegisterReq, cb: Callback<InstanceType<typeof respb.RegisterResourceResponse>>): void {
    this.track(async () => {
      const out = await this.deployment.register({
        type: req.getType(),
        name: req.getName(),
        parent: req.getParent(),
        custom: req.getCustom(),
        object: fromStruct(req.getObject()),
        dependencies: req.getDependenciesList(),
        propertyDependencies: propertyDependenciesOf(req),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        ...(req.getDeletebeforereplacedefined() ? { deleteBeforeReplace: req.getDeletebeforereplace() } : {}),
        ...(req.hasProtect() ? { protect: req.getProtect() } : {}),
        ...(req.hasRetainondelete() ? { retainOnDelete: req.getRetainondelete() } : {}),
        importId: req.getImportid(),
        ignoreChanges: req.getIgnorechangesList(),
        replaceOnChanges: req.getReplaceonchangesList(),
        aliases: aliasesOf(req),
      });
      const res = new respb.RegisterResourceResponse();
      res.setUrn(out.urn);
      res.setId(out.id);
      res.setObject(toStruct(out.object));
      res.setResult(out.result === "fail" ? respb.Result.FAIL : out.result === "skip" ? respb.Result.SKIP : respb.Result.SUCCESS);
      return res;
    }, cb);
  }

  /** ReadResource (`Resource.get`). */
  readResource(req: ReadReq, cb: Callback<InstanceType<typeof respb.ReadResourceResponse>>): void {
    this.track(async () => {
      const out = await this.deployment.read({
        type: req.getType(),
        name: req.getName(),
        parent: req.getParent(),
        id: req.getId(),
        properties: fromStruct(req.getProperties()),
        dependencies: req.getDependenciesList(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      });
      const res = new respb.ReadResourceResponse();
      res.setUrn(out.urn);
      res.setProperties(toStruct(out.properties));
      return res;
    }, cb);
  }

  /** RegisterResourceOutputs (stack and component outputs). */
  registerResourceOutputs(req: OutputsReq, cb: Callback<object>): void {
    this.track(async () => {
      this.deployment.registerOutputs(req.getUrn(), fromStruct(req.getOutputs()));
      return {};
    }, cb);
  }

  /** SupportsFeature. */
  supportsFeature(req: FeatureReq, cb: Callback<InstanceType<typeof respb.SupportsFeatureResponse>>): void {
    const res = new respb.SupportsFeatureResponse();
    res.setHassupport(FEATURES[req.getId()] ?? false);
    cb(null, res);
  }

  /**
   * GetDeploymentInfo, which newer SDKs (3.270 among them) ask before SupportsFeature:
   * answered UNIMPLEMENTED, as an older engine would, so the SDK falls back to
   * {@link supportsFeature} and {@link FEATURES} stays the one list of features.
   */
  getDeploymentInfo(_req: unknown, cb: Callback<never>): void {
    cb(Object.assign(new Error("GetDeploymentInfo is not implemented by the harness"), { code: grpc.status.UNIMPLEMENTED }));
  }

  /** Invoke: dynamic providers have no functions. */
  invoke(req: { getTok(): string }, cb: Callback<InstanceType<typeof provpb.InvokeResponse>>): void {
    cb(new Error(`unknown function ${req.getTok()}`));
  }

  /** SignalAndWaitForShutdown: nothing to wait for. */
  signalAndWaitForShutdown(_req: unknown, cb: Callback<object>): void {
    cb(null, {});
  }

  /** Called by the SDK's `disconnect`. */
  close(): void {}
}
