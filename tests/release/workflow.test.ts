/**
 * The release workflow (.github/workflows/release.yml), which cannot run here: on a version
 * tag, it runs the same script as the rehearsal (`npm run release:rehearse`, which CI runs
 * too) and publishes only after it passed, the very files the rehearsal checked, with the
 * publish step the rehearsal ran against its stand-ins.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { REPO_ROOT } from "../../harness";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  environment?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

const workflow = parse(fs.readFileSync(path.join(REPO_ROOT, ".github", "workflows", "release.yml"), "utf8")) as {
  on: { push: { tags: string[] } };
  jobs: Record<string, Job>;
};
const runs = (job: Job): string[] => job.steps.flatMap((s) => (s.run ? [s.run] : []));

describe("the release workflow", () => {
  it("runs on a version tag, checks the tag is package.json's version and rehearses with the script CI runs", () => {
    expect(workflow.on.push.tags).toEqual(["v*"]);
    const rehearse = runs(workflow.jobs.rehearse);
    expect(rehearse).toEqual(
      expect.arrayContaining([
        'test "v$(node -p \'require("./package.json").version\')" = "$GITHUB_REF_NAME"',
        "npm ci",
        "npm run --silent pulumi:build",
        "npm run release:rehearse -- --out dist-release",
      ]),
    );
    const ci = fs.readFileSync(path.join(REPO_ROOT, ".ci", "run"), "utf8");
    expect(ci).toMatch(/npm run release:rehearse/);
  });

  it("publishes after the rehearsal, the files it rehearsed, with the publish step the rehearsal ran", () => {
    const publish = workflow.jobs.publish;
    expect(publish.needs).toBe("rehearse");
    expect(publish.environment).toBe("release");
    expect(publish.permissions).toEqual({ contents: "write" });
    const upload = workflow.jobs.rehearse.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"));
    const download = publish.steps.find((s) => s.uses?.startsWith("actions/download-artifact"));
    expect(upload?.with?.path).toBe("dist-release");
    expect(download?.with).toEqual({ name: upload?.with?.name, path: "dist-release" });
    expect(runs(publish)).toEqual(["node scripts/release/publish.js --release dist-release --public"]);
    const step = publish.steps.find((s) => s.run?.includes("publish.js"));
    expect(Object.keys(step?.env ?? {}).sort()).toEqual([
      "GH_TOKEN",
      "MAVEN_CENTRAL_PASSWORD",
      "MAVEN_CENTRAL_USERNAME",
      "MAVEN_GPG_PASSPHRASE",
      "NODE_AUTH_TOKEN",
      "TWINE_PASSWORD",
      "TWINE_USERNAME",
    ]);
    const rehearsal = fs.readFileSync(path.join(REPO_ROOT, "scripts", "release", "rehearse.js"), "utf8");
    expect(rehearsal).toMatch(/publish\(releaseDir, \{/);
  });
});
