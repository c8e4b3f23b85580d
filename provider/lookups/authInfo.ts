/**
 * `getAuthInfo`'s result, written once: the native plugin's function and the package schema
 * describe it from this schema, the TypeScript SDK's `AuthInfoResult` is generated from it
 * (`npm run generate`), and {@link authInfoResult} makes it from the API's answer.
 */
import { z } from "zod";
import type { AuthInfo } from "../client";

const party = z.object({ id: z.string(), email: z.string(), name: z.string() });

/** Who the configured credential is: the result of `getAuthInfo` on both hosts. */
export const authInfoResultSchema = z.object({
  type: z.enum(["apiKey", "oauth"]).describe("`apiKey` for a personal access token, `oauth` for an OAuth user."),
  apiKey: z
    .object({
      name: z.string(),
      created: z.string(),
      publicKey: z.string(),
      project: z.object({ id: z.string(), name: z.string(), planType: z.string() }),
      issuingUser: party,
    })
    .optional()
    .describe("The token's details, for `apiKey`."),
  oauth: z.object({ user: party }).optional().describe("The user, for `oauth`."),
});

/** `getAuthInfo`'s result, as {@link authInfoResultSchema} describes it. */
export type AuthInfoLookup = z.output<typeof authInfoResultSchema>;

/** The result of `getAuthInfo` from the API's answer (`GET /auth/info`); a field the answer leaves out is empty. */
export function authInfoResult(info: AuthInfo): AuthInfoLookup {
  const k = info.apiKey;
  const u = info.oauth?.user;
  return info.type === "apiKey"
    ? {
        type: "apiKey",
        apiKey: {
          name: k?.name ?? "",
          created: k?.created ?? "",
          publicKey: k?.public_key ?? "",
          project: { id: k?.project?.id ?? "", name: k?.project?.name ?? "", planType: k?.project?.plan_type ?? "" },
          issuingUser: { id: k?.issuing_user?.id ?? "", email: k?.issuing_user?.email ?? "", name: k?.issuing_user?.name ?? "" },
        },
      }
    : { type: "oauth", oauth: { user: { id: u?.id ?? "", email: u?.email ?? "", name: u?.name ?? "" } } };
}
