/**
 * The serialized provider of each resource type (`__provider`): written by the provider
 * (provider/framework/trampoline.ts), which `clouddb-import` writes into its documents too;
 * kept here for what loads `pulumi-clouddb`'s `dist/sdk/trampoline.js`.
 */
export { providerText } from "../provider/framework/trampoline";
