/**
 * The client's error hierarchy, in one import: the base ({@link ClouddbError}, its brand
 * and the stable client codes, in errorBase.ts), errors from API answers (apiErrors.ts),
 * the client's own (clientErrors.ts), answers of something between the client and the API
 * (gatewayErrors.ts) and the waiters' (waitErrors.ts).
 *
 * Every error carries a stable string `code` and a brand under
 * `Symbol.for("pulumi-clouddb.ClouddbError")` checked by the static `isInstance`, so it is
 * recognised across two copies of the package. Messages never contain the API key or a
 * known password.
 */
export { ClouddbError, ClientErrorCode } from "./errorBase";
export type { ClientErrorCodeValue } from "./errorBase";
export {
  ApiError,
  InvalidRequestError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
} from "./apiErrors";
export type { ApiErrorInit, ErrorContext, ConflictBlocker, ConflictErrorInit, LimitSharing, RateLimitErrorInit } from "./apiErrors";
export {
  ResponseValidationError,
  ForeignResourceError,
  ConfigurationError,
  CancelledError,
  NetworkError,
  AmbiguousCreateError,
} from "./clientErrors";
export type { ResponseValidationInit, ForeignResourceInit, NetworkErrorInit, AmbiguousCreateInit } from "./clientErrors";
export { RedirectError, NotTheApiError } from "./gatewayErrors";
export type { RedirectInit, NotTheApiInit } from "./gatewayErrors";
export { WaitError, TimeoutError, ResourceFailedError, WaitCancelledError } from "./waitErrors";
export type { WatchedKind, WatchedBodies, WatchedResource, WaitErrorInit } from "./waitErrors";
