// @ts-check
/**
 * The tools a release is built, published and rehearsed with, none of them a dependency of
 * the package: a Python virtualenv with `build` (the Python SDK's sdist and wheel), `twine`
 * (its upload) and `pypiserver` (the rehearsal's package index), and `verdaccio` (the
 * rehearsal's npm registry), installed once under `.tools/release/` (`CLOUDDB_RELEASE_TOOLS`)
 * from PyPI and the npm registry, at the versions pinned here.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { run, say } = require("../plugin/run");

const root = path.resolve(__dirname, "..", "..");
/** The Python tools, pinned. */
const PYTHON_TOOLS = ["build==1.6.1", "twine==7.0.0", "pypiserver==2.4.2"];
/**
 * verdaccio, pinned: 6.8.0 is the newest that runs on Node.js 20 (6.10 wants 22), and its
 * install needs node-fetch 2.7.0 in place of the version it names.
 */
const VERDACCIO = { dependencies: { verdaccio: "6.8.0" }, overrides: { "node-fetch": "2.7.0" } };

/** Where the tools live. */
function toolsDir() {
  return process.env.CLOUDDB_RELEASE_TOOLS ?? path.join(root, ".tools", "release");
}

/**
 * Installs what is missing (a folder per tool set, named by its pins, written last), and
 * returns the tools: the virtualenv's `python`, `twine`, `pypi-server`, and verdaccio's bin.
 */
function releaseTools() {
  const dir = toolsDir();
  const py = path.join(dir, `python-${PYTHON_TOOLS.join("-").replace(/[=]+/g, "")}`);
  if (!fs.existsSync(path.join(py, "ready"))) {
    say(`installing ${PYTHON_TOOLS.join(", ")} from PyPI into ${py}...`);
    fs.rmSync(py, { recursive: true, force: true });
    run("python3", ["-m", "venv", py]);
    run(path.join(py, "bin", "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...PYTHON_TOOLS]);
    fs.writeFileSync(path.join(py, "ready"), "");
  }
  const npmDir = path.join(dir, `verdaccio-${VERDACCIO.dependencies.verdaccio}`);
  if (!fs.existsSync(path.join(npmDir, "ready"))) {
    say(`installing verdaccio ${VERDACCIO.dependencies.verdaccio} from the npm registry into ${npmDir}...`);
    fs.rmSync(npmDir, { recursive: true, force: true });
    fs.mkdirSync(npmDir, { recursive: true });
    fs.writeFileSync(path.join(npmDir, "package.json"), JSON.stringify({ private: true, ...VERDACCIO }, null, 2));
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: npmDir });
    fs.writeFileSync(path.join(npmDir, "ready"), "");
  }
  return {
    python: path.join(py, "bin", "python"),
    twine: path.join(py, "bin", "twine"),
    pypiServer: path.join(py, "bin", "pypi-server"),
    verdaccio: path.join(npmDir, "node_modules", "verdaccio", "bin", "verdaccio"),
  };
}

module.exports = { releaseTools, toolsDir };
