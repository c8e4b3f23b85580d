/**
 * The native TypeScript SDK's overlay generated from the resource definitions:
 * `tools/sdk-overlays/nodejs/untracedResources.ts`, which `npm run generate:sdks` copies into
 * `sdk-native/nodejs` (scripts/native-sdks.js). It holds the list of the SDK's resource modules,
 * one per registered type, so that a new kind's class is untraced with no hand-written line;
 * its code is written here, once.
 */
import type { RegisteredResource } from "../../provider/resources/registration";
import { header } from "./header";

/** Where the overlay goes, relative to the repository root. */
export const UNTRACED_RESOURCES_OVERLAY = "tools/sdk-overlays/nodejs/untracedResources.ts";

/** What the overlay does once its list is known: each class becomes a Proxy constructing untraced, on a base class (`Registration`) that registers no Output for an input the program left unset. */
const UNTRACED_CODE = `
/** The program's arguments of the resource being constructed, from the construct trap to the generated constructor's call of its base class. */
let programArgs: Record<string, unknown> | undefined;

/** \`inputs\` without the Outputs the generated constructor made of an input that \`given\` (the program's arguments) lacks. */
function withoutUnsetOutputs(inputs: pulumi.Inputs, given: Record<string, unknown>): pulumi.Inputs {
  const unset = Object.keys(inputs).filter((key) => given[key] === undefined && pulumi.Output.isInstance(inputs[key]));
  return unset.length === 0 ? inputs : { ...inputs, ...Object.fromEntries(unset.map((key) => [key, undefined])) };
}

/** The base class of each generated class here: \`pulumi.CustomResource\`, given the inputs less those the program left unset (see the module comment). */
abstract class Registration extends pulumi.CustomResource {
  constructor(...[type, name, inputs, ...rest]: ConstructorParameters<typeof pulumi.CustomResource>) {
    const given = programArgs;
    programArgs = undefined;
    super(type, name, inputs !== undefined && given !== undefined ? withoutUnsetOutputs(inputs, given) : inputs, ...rest);
  }
}

/** The stack-trace formatter in force while a resource is constructed: the one before, given the frames outside this file. */
function withoutOwnFrames(format: typeof Error.prepareStackTrace): NonNullable<typeof Error.prepareStackTrace> {
  return (error, frames) => {
    const kept = frames.filter((frame) => frame.getFileName() !== __filename);
    return format ? format(error, kept) : \`\${String(error)}\${kept.map((frame) => \`\\n    at \${String(frame)}\`).join("")}\`;
  };
}

/** The Proxy's construct trap: the generated constructor, untraced where that changes nothing the program sees. */
function construct(target: new (...args: unknown[]) => object, args: unknown[], newTarget: Function): object {
  const settle = untracedConstruction((args[2] ?? {}) as Parameters<typeof untracedConstruction>[0], construct);
  const format = Error.prepareStackTrace;
  Error.prepareStackTrace = withoutOwnFrames(format);
  const outer = programArgs;
  programArgs = typeof args[1] === "object" && args[1] !== null ? (args[1] as Record<string, unknown>) : undefined;
  let made: object;
  try {
    made = Reflect.construct(target, args, newTarget) as object;
  } catch (error) {
    Error.prepareStackTrace = format;
    programArgs = outer;
    settle(error);
    throw error;
  }
  Error.prepareStackTrace = format;
  programArgs = outer;
  settle();
  return made;
}

for (const [module, className] of RESOURCE_MODULES) {
  const generated = module[className] as new (...args: unknown[]) => object;
  // The generated constructor's \`super(…)\` calls its class's prototype: Registration, which calls Pulumi's.
  if (Object.getPrototypeOf(generated) === pulumi.CustomResource) Object.setPrototypeOf(generated, Registration);
  module[className] = new Proxy(generated, { construct });
}

export {};
`;

/** The overlay's text: the header, what it does, the list of the registered types' modules, its code. */
function untracedResourcesFile(resources: readonly RegisteredResource[]): string {
  const entries = resources.map((r) => `  [require("./${r.module}"), "${r.definition.schema.kind}"],`);
  return `${header("scripts/generate/sdkOverlays.ts and provider/resources/*/definition.ts")}/**
 * Copied into the generated TypeScript SDK by \`npm run generate:sdks\` (the codegen's overlays,
 * with \`promiseStacks.ts\` from the dynamic SDK beside it); the package's index loads it first
 * thing. What it does: the custom resources of this package register their properties with no
 * stack trace taken, as the dynamic SDK's do (see promiseStacks.ts): each class the package
 * exports is a Proxy of the generated class whose construction runs under \`untracedConstruction\`.
 *
 * Nothing else a program sees changes: \`instanceof\`, static members and subclasses go to the
 * generated class; the frame the Proxy adds is left out of the call sites Pulumi records for
 * the resource (its source position and stack trace), and out of the trace of an error the
 * constructor throws, which is that of the program's call.
 *
 * And each generated class registers, for an input the program did not give, what the engine
 * gets for it anyway (nothing) instead of the Output the generated constructor makes of it to
 * fill in its type's defaults (\`pulumi.output(args.haReplicas).apply(…)\`, made for every
 * \`Service\`): such an Output resolves to undefined, and it cost the program more than a
 * third of registering a \`Service\` (its promises, and two stack traces Pulumi takes while
 * serializing it, after the construction). {@link Registration} is put between the generated
 * class and \`pulumi.CustomResource\` for this.
 */
import * as pulumi from "@pulumi/pulumi";
import { untracedConstruction } from "./promiseStacks";

/** The generated modules of this package's custom resources, each with the name of the class it exports. */
const RESOURCE_MODULES: ReadonlyArray<readonly [module: Record<string, unknown>, className: string]> = [
${entries.join("\n")}
];
${UNTRACED_CODE}`;
}

/** Every generated SDK overlay, by path. */
export function sdkOverlayFiles(resources: readonly RegisteredResource[]): Record<string, string> {
  return { [UNTRACED_RESOURCES_OVERLAY]: untracedResourcesFile(resources) };
}
