/**
 * The dynamic-provider host of one resource type: Pulumi's dynamic `ResourceProvider`
 * interface translated to and from the core's requests (framework/core.ts,
 * framework/coreProvider.ts), and nothing more. What that interface cannot carry, the SDK
 * sends as inputs (framework/internalInputs.ts): the owner (`__owner`, read here into the
 * request) and `replaceOnChanges`; it makes no previews (the engine never asks a dynamic
 * provider for one) and passes on only `changes` and `replaces` of a diff (its `DiffResult`
 * has no detailed diff). In Pulumi's dynamic-provider host, a process whose engine is gone
 * ends its waits and exits (engineWatch.ts), and the heap stays flat (heapUpkeep.ts).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { coreProvider } from "./core";
import type { ResourceDefinition } from "./definition";
import { endWhenEngineGone, inDynamicProviderHost } from "./engineWatch";
import { keepHeapFlat } from "./heapUpkeep";
import { OWNER_KEY } from "./internalInputs";
import type { InputSpecs, OutputSpecs, Props } from "./schema";

export type { ResourceDefinition, ResourceOperations } from "./definition";

/** The SDK's `__owner` input: the only way the dynamic protocol says who asks (`""` from SDKs that did not send it). */
function ownerInput(news: Props | undefined): string {
  const owner = news?.[OWNER_KEY];
  return typeof owner === "string" ? owner : "";
}

/**
 * The dynamic provider of one resource type, served by its core. The inputs reach the core
 * as the engine gives them (the SDK's `__owner` and `__provider` among them, which state
 * records as before).
 */
export function defineResourceProvider<I extends InputSpecs, O extends OutputSpecs>(
  definition: ResourceDefinition<I, O>,
): Required<Pick<dynamic.ResourceProvider, "configure" | "check" | "diff" | "read" | "update" | "delete">> & dynamic.ResourceProvider {
  if (inDynamicProviderHost()) {
    endWhenEngineGone();
    keepHeapFlat();
  }
  const core = coreProvider(definition);
  return {
    configure: (req) => core.configure(req.config),
    check: (olds: Props, news: Props) => core.check({ olds, news, owner: ownerInput(news) }),
    async diff(id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
      const { changes, replaces } = await core.diff({ id, olds, news });
      return { changes, replaces };
    },
    create: (news: Props) => core.create({ news, owner: ownerInput(news), preview: false }),
    read: (id: string, props?: Props) => core.read({ id, props: props ?? {} }),
    update: (id: string, olds: Props, news: Props) => core.update({ id, olds, news, owner: ownerInput(news), preview: false }),
    delete: (id: string, props: Props) => core.delete({ id, props }),
  };
}
