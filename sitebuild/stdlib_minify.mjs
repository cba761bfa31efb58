// Writes a zip of the named standard-library files, each module as its bytecode only (name.pyc:
// compiled by Pyodide's own Python 3.14, as only Pyodide has it here, without docstrings or line
// tables); other files as they are (sitebuild/stdlib.py).
//   node stdlib_minify.mjs <pyodide dir/> <names.json> <out.zip>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const MINIFY = `
import ast, importlib.util, io, json, marshal, zipfile

DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

def without_docstrings(tree):
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, DOCUMENTED) and body and isinstance(body[0], ast.Expr) \\
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return tree

def without_line_tables(code):
    consts = tuple(without_line_tables(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)

def pyc(name, source):
    """An unchecked hash-based .pyc (PEP 552): zipimport loads it as it is."""
    code = compile(source, "/lib/python314.zip/" + name, "exec", dont_inherit=True)
    flags = (1).to_bytes(4, "little")
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + marshal.dumps(without_line_tables(code))

def entry(name):
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))

buffer = io.BytesIO()
with zipfile.ZipFile("/lib/python314.zip") as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as target:
    for name in json.loads(NAMES):
        data = source.read(name)
        if name.endswith(".py"):
            name, data = name + "c", pyc(name, ast.unparse(without_docstrings(ast.parse(data, name))).encode() + b"\\n")
        target.writestr(entry(name), data)
buffer.getvalue()
`;

async function main([indexURL, namesFile, out]) {
  const { loadPyodide } = await import(pathToFileURL(`${indexURL}pyodide.mjs`).href);
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: (line) => console.error(line) });
  pyodide.globals.set("NAMES", readFileSync(namesFile, "utf8"));
  writeFileSync(out, pyodide.runPython(MINIFY).toJs());
}

// An error is written in full, with status 1 (an uncaught error's report is cut short on a pipe).
main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.message || error}\n`);
  process.exitCode = 1;
});
