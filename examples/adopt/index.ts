/**
 * Taking over a service that already exists (made by hand or by another tool).
 * `pulumi import` does not work for dynamic providers, so:
 * - `adoptId` makes create take the existing service over: it is read, checked
 *   (name, type and region must match), then changed to match the program; while
 *   `adoptId` is set, Pulumi never deletes it (destroy leaves it in the cloud).
 * - `Service.get` only reads it, without managing it.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const config = new pulumi.Config();
  const existingId = config.require("existingServiceId");
  const existingName = config.require("existingServiceName");

  const adopted = new clouddb.Service("adopted", {
    adoptId: existingId,
    name: existingName,
    environment: "PROD",
    connectionPooler: true,
  });
  // Read once the adoption has converged it (`adopted.serviceId` resolves then): a read made
  // while the adoption is still changing it would record what a later refresh finds changed.
  const readOnly = clouddb.Service.get("looked-up", adopted.serviceId);
  return { adoptedId: adopted.serviceId, status: readOnly.status, environment: adopted.environment };
};
