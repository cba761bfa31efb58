"""Every built page carries a strict Content-Security-Policy, first in its head, matching its inline scripts.

(The browser tests show the policy is enforced and that nothing breaks under it.)
"""

from __future__ import annotations

import re
from html import unescape

from sitebuild.csp import inline_scripts, source_hash

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def directives(policy: str) -> dict[str, list[str]]:
    parts = [part.split() for part in policy.split(";") if part.strip()]
    return {words[0]: words[1:] for words in parts}


def test_every_page_has_a_strict_policy_covering_its_inline_scripts(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 16  # 5 pages x 3 languages + 404
    for path in pages:
        html = path.read_text(encoding="utf-8")
        found = META.findall(html)
        assert len(found) == 1, f"{path}: {len(found)} policies"
        head = html[: html.index("</head>")]
        first_script = head.find("<script")
        assert first_script == -1 or head.index(found[0]) < first_script, f"{path}: policy after a script"
        policy = directives(unescape(found[0]))
        assert policy["default-src"] == ["'none'"]
        script = policy["script-src"]
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, path
        allowed = {s for s in script if s.startswith("'sha256-")}
        needed = {source_hash(body) for body in inline_scripts(html)}
        assert needed == allowed, f"{path}: hashes {allowed} for inline scripts {needed}"
        assert set(script) - allowed == {"'self'", "'wasm-unsafe-eval'"}
        for name in ("style-src", "connect-src", "worker-src", "font-src", "manifest-src"):
            assert policy[name] == ["'self'"], f"{path}: {name} {policy[name]}"
        assert policy["img-src"] == ["'self'", "data:"]
        assert not re.search(r"<[a-z][^>]*\sstyle=", html), f"{path}: an inline style attribute"
        assert not re.search(r"<[a-z][^>]*\son[a-z]+=", html), f"{path}: an inline event handler"
