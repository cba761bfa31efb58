// Runs the calculators in Pyodide under Node, as the browser's worker does (start, unpack our
// wheel, import, snapshot, restore, evaluate), and reports which standard-library files were
// imported and every answer. Used by sitebuild/stdlib.py: its input and output are JSON.
//   node stdlib_trace.mjs <pyodide dir/> <stdlib zip> <wheel> <cases.json> > result.json
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const UNPACK = `
import site, zipfile
with zipfile.ZipFile("/tmp/engine.whl") as wheel:
    wheel.extractall(site.getsitepackages()[0])
`;

const REPORT = `
import importlib, json, sys
from calculators.bridge import evaluate_json
for name in json.loads(MODULES):
    importlib.import_module(name)
answers = [evaluate_json(calc, json.dumps(inputs), lang) for calc, inputs, lang in json.loads(CASES)]
files = sorted({m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)})
json.dumps({"files": files, "answers": answers})
`;

async function main([indexURL, stdlib, wheel, casesFile]) {
  const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
  const { modules, cases } = JSON.parse(readFileSync(casesFile, "utf8"));
  const install = (pyodide) => {
    pyodide.FS.writeFile("/tmp/engine.whl", readFileSync(wheel));
    pyodide.runPython(UNPACK);
  };
  const options = { indexURL, stdLibURL: stdlib, stdout: () => {}, stderr: (line) => console.error(line) };
  const first = await loadPyodide({ ...options, _makeSnapshot: true });
  install(first);
  first.pyimport("calculators.bridge");
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: first.makeMemorySnapshot() });
  install(pyodide);
  pyodide.globals.set("MODULES", JSON.stringify(modules));
  pyodide.globals.set("CASES", JSON.stringify(cases));
  process.stdout.write(pyodide.runPython(REPORT));
}

// An error is written in full, with status 1 (an uncaught error's report is cut short on a pipe).
main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.message || error}\n`);
  process.exitCode = 1;
});
