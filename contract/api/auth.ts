/** API description of the caller's identity: `GET /auth/info` and its answer. */
import { z } from "zod";
import type { OperationSpec } from "./operation";
import { tolerant } from "./reading";

const UserSchema = z.looseObject({
  id: tolerant(z.string()),
  email: tolerant(z.string()),
  name: tolerant(z.string()),
});

/** Schema of `GET /auth/info`: `type` says which of `apiKey` / `oauth` is present. */
export const AuthInfoSchema = z
  .looseObject({
    type: z.enum(["apiKey", "oauth"]),
    apiKey: z
      .looseObject({
        created: tolerant(z.string()),
        issuing_user: tolerant(UserSchema),
        name: tolerant(z.string()),
        project: tolerant(z.looseObject({ id: tolerant(z.string()), name: tolerant(z.string()), plan_type: tolerant(z.string()) })),
        public_key: tolerant(z.string()),
      })
      .optional(),
    oauth: z.looseObject({ user: tolerant(UserSchema) }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v[v.type] === undefined || v[v.type] === null) {
      ctx.addIssue({ code: "custom", path: [v.type], message: `an object (type is "${v.type}")`, input: v[v.type] });
    }
  });

/** Identity of the caller (`GET /auth/info`). */
export type AuthInfo = z.infer<typeof AuthInfoSchema>;

/** The operations on the caller's identity. */
export const AUTH_API = {
  getAuthInfo: { method: "GET", path: "/auth/info", retry: "read", reply: { one: AuthInfoSchema }, status: 200 },
} as const satisfies Record<string, OperationSpec>;
