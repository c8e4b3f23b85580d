// Pulumi resources for CloudDB managed databases.
package clouddb
