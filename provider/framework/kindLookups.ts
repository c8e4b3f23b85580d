/**
 * What a resource kind declares of its lookups, beside its definition: the functions
 * (`getVpc`, `getVpcs`), how the API is read for them, and how a live resource reads as
 * outputs. The lookups' table (provider/lookups) is built from these declarations in the
 * registry, the TypeScript SDK's typed wrappers are generated from them (`npm run generate`),
 * and the import tool (provider/import) lists a project through them. A lookup's arguments are
 * not declared: one by id takes the kind's id output, and every lookup takes the inputs its
 * schema's `lookup` names (a parent's id, then `projectId`).
 */
import type { ClouddbClient } from "../client";

/** Where a kind is looked up: its project, and the ids of the parents its lookups take (`vpcId`), by name. */
export type LookupScope = { readonly projectId: string } & Readonly<Record<string, string>>;

/** The lookup of one resource of a kind by its id (`getVpc`). */
export interface LookupOfOne<L> {
  /** The function's name, `getVpc`. */
  readonly name: string;
  /** What it finds, for its documentation: `One VPC of the project`. */
  readonly finds: string;
  /** Reads the resource with id `id` (throws the client's NotFoundError when there is none). */
  read(api: ClouddbClient, id: string, scope: LookupScope): Promise<L>;
}

/** The lookup of every resource of a kind in its scope (`getVpcs`). */
export interface LookupOfAll<L> {
  /** The function's name, `getVpcs`. */
  readonly name: string;
  /** Its documentation, `Every VPC of the project.` */
  readonly doc: string;
  /** The native function's result holds the list under this name, `vpcs`, documented by `listDoc`. */
  readonly list: string;
  readonly listDoc: string;
  /** Reads every resource in `scope`. */
  read(api: ClouddbClient, scope: LookupScope): Promise<readonly L[]>;
}

/** A kind's lookups and how a live resource `L` of it reads (declared in its definition). */
export interface KindLookups<L = never> {
  readonly one?: LookupOfOne<L>;
  readonly all: LookupOfAll<L>;
  /** The resource as a warning names it, `VPC 12`. */
  named(live: L): string;
  /** Its id. */
  idOf(live: L): string;
  /** Its outputs, read from `live` in `scope` (the definition's outputs, whose declared fields say what an answer must show readably). */
  outputs(live: L, scope: LookupScope): object;
  /**
   * How `clouddb-import` treats it: the logical name it takes (`parent`, a parent's name when
   * the kind has one), and whether it is imported at all (a service being deleted is not, nor
   * what is under it). @default every one, named by {@link KindLookups.named}
   */
  readonly imported?: {
    readonly name: (live: L, parent: string | undefined) => string;
    readonly importable?: (live: L) => boolean;
  };
}

/** Declares a kind's lookups, typed against its live resource `L`; the registry holds them untyped. */
export function kindLookups<L>(declaration: KindLookups<L>): KindLookups<unknown> {
  return declaration as unknown as KindLookups<unknown>;
}
