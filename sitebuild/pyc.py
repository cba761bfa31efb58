"""Bytecode as the engine's Python loads it, for ``stdlib_minify.mjs`` (the standard library) and
``wheel_bytecode.mjs`` (our wheel): both run this file inside Pyodide under Node, the only Python
3.14 on these machines, before their own lines. Stdlib only; nothing imports it in CPython."""

import ast
import importlib.util
import marshal


def without_docstrings(tree, kinds):
    """``tree`` without the docstring of each node of ``kinds`` (an empty body gets ``pass``)."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, kinds) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return tree


def without_line_tables(code):
    consts = tuple(without_line_tables(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)


def pyc(source, code):
    """An unchecked hash-based .pyc (PEP 552) of ``code``: loaded as it is, never checked against a source."""
    flags = (1).to_bytes(4, "little")
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + marshal.dumps(without_line_tables(code))
