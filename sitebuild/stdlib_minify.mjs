// Writes a zip of the named standard-library files, each module as its bytecode only (name.pyc:
// compiled by Pyodide's own Python 3.14, as only Pyodide has it here, without docstrings or line
// tables); other files as they are (sitebuild/stdlib.py).
//   node stdlib_minify.mjs <pyodide dir/> <names.json> <out.zip>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

// The shared helpers (without_docstrings, pyc) come first: sitebuild/pyc.py.
const HELPERS = readFileSync(new URL("pyc.py", import.meta.url), "utf8");
const MINIFY = `
import io, json, zipfile

DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

def compiled(name, source):
    code = compile(source, "/lib/python314.zip/" + name, "exec", dont_inherit=True)
    return pyc(source, code)

def entry(name):
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))

buffer = io.BytesIO()
with zipfile.ZipFile("/lib/python314.zip") as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as target:
    for name in json.loads(NAMES):
        data = source.read(name)
        if name.endswith(".py"):
            name, data = name + "c", compiled(name, ast.unparse(without_docstrings(ast.parse(data, name), DOCUMENTED)).encode() + b"\\n")
        target.writestr(entry(name), data)
buffer.getvalue()
`;

async function main([indexURL, namesFile, out]) {
  const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (line) => console.error(line) });
  pyodide.globals.set("NAMES", readFileSync(namesFile, "utf8"));
  writeFileSync(out, pyodide.runPython(HELPERS + MINIFY).toJs());
}

// An error is written in full, with status 1 (an uncaught error's report is cut short on a pipe).
main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.message || error}\n`);
  process.exitCode = 1;
});
