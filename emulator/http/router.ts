/** A small path router: patterns like `/projects/:project/vpcs`, 404 and 405 built in. */
import { MethodNotAllowedError, UnknownPathError } from "./http-errors";

/** A matched route: its handler and the path parameters. */
export interface RouteMatch<H> {
  /** The handler registered for the method. */
  handler: H;
  /** Decoded path parameters by name. */
  params: Record<string, string>;
}

interface Route<H> {
  segments: string[];
  handlers: Map<string, H>;
}

/** Routes by method and path. */
export class Router<H> {
  private readonly routes: Route<H>[] = [];

  /** Registers `handler` for `method` on `pattern` (segments starting with `:` are parameters). */
  on(method: string, pattern: string, handler: H): this {
    const segments = pattern.split("/").filter((s) => s.length > 0);
    let route = this.routes.find((r) => r.segments.join("/") === segments.join("/"));
    if (!route) {
      route = { segments, handlers: new Map() };
      this.routes.push(route);
    }
    route.handlers.set(method, handler);
    return this;
  }

  /**
   * The handler for a request.
   * @throws UnknownPathError when no pattern matches; MethodNotAllowedError (with `Allow`)
   *   when the path matches but not the method.
   */
  resolve(method: string, path: string): RouteMatch<H> {
    const parts = path.split("/").slice(1);
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      const handler = route.handlers.get(method);
      if (handler === undefined) throw new MethodNotAllowedError(method, [...route.handlers.keys()]);
      return { handler, params };
    }
    throw new UnknownPathError(path);
  }
}

function matchSegments(segments: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const part = parts[i];
    if (segment.startsWith(":")) {
      if (part.length === 0) return undefined;
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[segment.slice(1)] = value;
    } else if (segment !== part) {
      return undefined;
    }
  }
  return params;
}
