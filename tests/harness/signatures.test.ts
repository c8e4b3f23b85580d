/**
 * The secret wrapper's signature is written in two places: the harness's (harness/secrets.ts,
 * which the harness's deployments and the native tests use) and the native plugin's wire
 * (provider/native/wire.ts, which must not load `@pulumi/pulumi`'s runtime). Both are Pulumi's
 * own values, as its runtime exports them.
 */
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { SECRET_SIG, SIG_KEY } from "../../harness/secrets";
import * as wire from "../../provider/native/wire";

describe("the secret wrapper's signature", () => {
  it("is Pulumi's own in the harness and on the native plugin's wire", () => {
    expect({ key: SIG_KEY, secret: SECRET_SIG }).toEqual({ key: rpc.specialSigKey, secret: rpc.specialSecretSig });
    expect({ key: wire.SIG, secret: wire.SECRET_SIG }).toEqual({ key: rpc.specialSigKey, secret: rpc.specialSecretSig });
  });
});
