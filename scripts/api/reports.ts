/**
 * The package's public surface, one API report per entry point: each report (`api/<name>.api.md`)
 * is what `@microsoft/api-extractor` reads from the built declarations of one entry of
 * package.json's `exports` (the list of entry points is that map, not a second one).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from "@microsoft/api-extractor";

/** The repository's root. */
const root = path.resolve(__dirname, "..", "..");

/** Folder of the checked-in reports. */
export const REPORT_FOLDER = path.join(root, "api");

/** One entry point of the package and its report. */
export interface EntryPoint {
  /** As a user imports it, e.g. `pulumi-clouddb/provider/client`. */
  readonly specifier: string;
  /** Its built declarations, relative to the root. */
  readonly types: string;
  /** The report's file name, e.g. `pulumi-clouddb-provider-client.api.md`. */
  readonly reportFileName: string;
}

/** The entry points of package.json's `exports` (every one with types). */
export function entryPoints(): EntryPoint[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(pkg.exports).flatMap(([key, target]) => {
    if (typeof target === "string" || !target.types) return [];
    const specifier = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
    return [{ specifier, types: target.types, reportFileName: `${specifier.replace(/\//g, "-")}.api.md` }];
  });
}

/** What one entry point's extraction found. */
export interface ReportResult {
  readonly entry: EntryPoint;
  /** Whether the surface differs from the checked-in report (written anew when updating). */
  readonly changed: boolean;
  /** Errors and warnings api-extractor reported, as text. */
  readonly problems: string[];
}

/**
 * Extracts the surface of each entry point from `dist/` (build first) and compares it with its
 * report in `reportFolder` (`api/` unless told). With `update`, writes the reports that differ;
 * without, writes nothing.
 */
export function extractReports(update: boolean, reportFolder = REPORT_FOLDER): ReportResult[] {
  if (update) fs.mkdirSync(reportFolder, { recursive: true });
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-api-"));
  try {
    return entryPoints().map((entry) => extract(entry, update, reportFolder, temp));
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** Messages that are our `changed` (or a report written anew), not problems. */
const QUIET = new Set<string>(["console-api-report-changed", "console-api-report-created", "console-api-report-copied"]);

function extract(entry: EntryPoint, update: boolean, reportFolder: string, temp: string): ReportResult {
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      newlineKind: "lf",
      mainEntryPointFilePath: path.join(root, entry.types),
      compiler: { tsconfigFilePath: path.join(root, "tsconfig.build.json") },
      apiReport: { enabled: true, reportFileName: entry.reportFileName, reportFolder, reportTempFolder: temp },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // We mark no release stages (alpha, beta): what an entry point exports is public.
        extractorMessageReporting: {
          "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
          // A type a public signature names but the entry point does not export: named in the report.
          "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
        },
      },
    },
    packageJsonFullPath: path.join(root, "package.json"),
    configObjectFullPath: undefined,
  });
  const problems: string[] = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback: (m: ExtractorMessage) => {
      if (m.logLevel === ExtractorLogLevel.Error || m.logLevel === ExtractorLogLevel.Warning) {
        // A changed report is our `changed`, not a problem.
        if (!QUIET.has(m.messageId)) problems.push(m.formatMessageWithLocation(root));
      }
      m.handled = true;
    },
  });
  return { entry, changed: result.apiReportChanged, problems };
}
