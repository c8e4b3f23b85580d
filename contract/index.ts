/**
 * The API contract, the ground floor of the package: the API description (every operation,
 * its path, retry kind, status, request and response schemas), the values and rules the API
 * applies to requests, the defaults it fills in, the statuses and their classes, and how a
 * listed resource is recognised as what a create made. The client, the emulator and the
 * provider's `check` import it; it imports none of them.
 */
export * from "./api";
export * from "./values";
export * from "./sizes";
export * from "./rules";
export * from "./describe";
export * from "./cidr";
export * from "./defaults";
export * from "./statuses";
export * from "./matching";
export * from "./readable";
