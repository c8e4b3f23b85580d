// @ts-check
/**
 * The TypeDoc plugin of `npm run docs`: class pages as a user of the package reads them.
 *
 * 1. Resource classes. A generated resource class (`class Vpc extends resourceClass<VpcArgs,
 *    VpcOutputs, "projectId">(type) {}`, sdk/construct.ts) gets its constructor, `get` and
 *    outputs from a base the package builds, and TypeDoc shows that machinery as it is: the
 *    base's types (`ClouddbResource<this> & OutputProperties<VpcOutputs>`) as the hierarchy,
 *    the base's expression in every "Inherited from", `get`'s `this` parameter and type
 *    parameter, and each output's type as it resolves the mapped type (a bare `Output` for a
 *    `Size`, `OutputInstance<boolean>` for a boolean). Here the class is what it is to a
 *    program: a `CustomResource` whose outputs are `Output<T>` of the types its Outputs
 *    interface declares (`| undefined` for an optional one), with `static get(name, id,
 *    state?, opts?)` returning the class.
 * 2. What classes inherit from declarations in node_modules (`id` and `urn` of
 *    `CustomResource`, `message` and `stack` of `Error`): no source link, which would point
 *    into node_modules on GitHub; and the statics of `Error` (`captureStackTrace`,
 *    `prepareStackTrace`, `stackTraceLimit`) left out, since no error of the package adds to them.
 */
import { Converter, IntrinsicType, ReflectionKind, ReferenceType, UnionType } from "typedoc";

/** @typedef {import("typedoc").DeclarationReflection} DeclarationReflection */
/** @typedef {import("typedoc").ProjectReflection} ProjectReflection */

/**
 * Whether a class is a generated resource class: its base is `resourceClass(...)`, whose
 * type TypeDoc gives as an intersection with `OutputProperties<...>`.
 * @param {DeclarationReflection} cls
 */
function isResourceClass(cls) {
  return (cls.extendedTypes ?? []).some(
    (t) => t.type === "intersection" && t.types.some((u) => u.type === "reference" && u.name === "OutputProperties"),
  );
}

/**
 * Whether a member is declared in node_modules (inherited from a dependency's class).
 * @param {DeclarationReflection} member
 */
function fromDependency(member) {
  const sources = [...(member.sources ?? []), ...(member.signatures ?? []).flatMap((s) => s.sources ?? [])];
  return sources.length > 0 && sources.every((s) => s.fileName.includes("node_modules/"));
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  const mappings = /** @type {Record<string, Record<string, string>>} */ (app.options.getValue("externalSymbolLinkMappings"));
  const pulumiDocs = mappings["@pulumi/pulumi"]?.["*"];

  /**
   * A reference to a `@pulumi/pulumi` symbol, linked to Pulumi's reference.
   * @param {ProjectReflection} project
   * @param {string} name
   */
  const pulumiSymbol = (project, name) => {
    const ref = ReferenceType.createBrokenReference(name, project, "@pulumi/pulumi");
    ref.externalUrl = pulumiDocs;
    return ref;
  };

  /**
   * @param {ProjectReflection} project
   * @param {DeclarationReflection} cls
   */
  const asResourceClass = (project, cls) => {
    cls.extendedTypes = [pulumiSymbol(project, "CustomResource")];
    cls.typeHierarchy = {
      types: cls.extendedTypes,
      next: { types: [ReferenceType.createResolvedReference(cls.name, cls, project)], isTarget: true },
    };
    // Every resource has `urn`, an Output<string> of @pulumi/pulumi: the template of the outputs' types.
    const urnType = cls.children?.find((c) => c.name === "urn")?.type;
    const template = urnType?.type === "reference" ? urnType : undefined;
    for (const member of cls.children ?? []) {
      if (fromDependency(member)) {
        const inherited = pulumiSymbol(project, `CustomResource.${member.name}`);
        member.inheritedFrom = inherited;
        for (const sig of member.signatures ?? []) sig.inheritedFrom = inherited;
        continue;
      }
      const declared = member.inheritedFrom?.reflection;
      member.inheritedFrom = undefined;
      for (const sig of member.signatures ?? []) sig.inheritedFrom = undefined;
      if (member.kindOf(ReflectionKind.Property) && declared?.isDeclaration() && declared.type && template?.symbolId) {
        const output = ReferenceType.createUnresolvedReference("Output", template.symbolId, project, template.qualifiedName);
        output.package = template.package;
        output.externalUrl = template.externalUrl;
        output.typeArguments = [declared.flags.isOptional ? new UnionType([declared.type, new IntrinsicType("undefined")]) : declared.type];
        member.type = output;
      }
      if (member.name === "get") {
        for (const sig of member.signatures ?? []) {
          sig.parameters = sig.parameters?.filter((p) => p.name !== "this");
          sig.typeParameters = undefined;
          sig.type = ReferenceType.createResolvedReference(cls.name, cls, project);
        }
      }
    }
  };

  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const { project } = context;
    for (const cls of /** @type {DeclarationReflection[]} */ (project.getReflectionsByKind(ReflectionKind.Class))) {
      if (isResourceClass(cls)) asResourceClass(project, cls);
      for (const member of [...(cls.children ?? [])]) {
        if (!fromDependency(member)) continue;
        if (member.flags.isStatic) {
          project.removeReflection(member);
          continue;
        }
        member.sources = undefined;
        for (const sig of member.signatures ?? []) sig.sources = undefined;
      }
    }
  });
}
