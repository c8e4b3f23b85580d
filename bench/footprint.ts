/**
 * The serialized provider every resource's state carries twice (`__provider`, in its inputs
 * and its outputs): the text of each resource type, as this tree's SDK writes it. What the
 * text must still do (hold no credential, fail with the install hint when the package is
 * missing, run state 0.1.0 wrote) is tested by tests/sdk/trampoline.test.ts and
 * tests/upgrade; here, its size, and that no setting's value is in it.
 */
import type { Report } from "./report";
import type { Tree } from "./trees";

/** The provider modules of the four resource types, as `pulumi-clouddb/provider/<module>`. */
const MODULES = ["vpc", "vpcPeering", "service", "readReplicaSet"];

/** Adds the row of every type's serialized provider. */
export function footprint(report: Report, current: Tree): void {
  const trampoline = current.load<{ providerText(module: string): string }>("sdk/trampoline");
  if (trampoline === undefined) throw new Error("this tree has no sdk/trampoline");
  const texts = MODULES.map((m) => ({ module: m, text: trampoline.providerText(m) }));
  const largest = Math.max(...texts.map((t) => Buffer.byteLength(t.text)));
  // A credential would come from the settings: none of their names may appear in the text.
  const settings = /apiKey|apiUrl|projectId|Bearer/;
  report.row(
    "1 state",
    "serialized provider of each type (vpc / vpcPeering / service / readReplicaSet)",
    texts.map((t) => `${Buffer.byteLength(t.text)} B`).join(" / "),
    {
      target: "<= 512 B, no setting in it",
      pass: largest <= 512 && texts.every((t) => !settings.test(t.text)),
      why: "install hint and 0.1.0 state: tests/sdk/trampoline.test.ts, tests/upgrade",
    },
  );
}
