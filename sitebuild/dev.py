"""The editor's loop (``make dev``, or ``mkdocs serve``): before each rebuild, what an edit outside
``docs/`` needs rebuilt first.

A page or a template needs nothing (MkDocs rebuilds the site). A catalog (``.po``) needs its ``.mo``
compiled, and a catalog of ``calculators/`` also needs the wheel rebuilt (it carries the ``.mo``): the
calculators' sentences come from the wheel in the browser and from the catalogs at build time (forms,
self-test), so both must change together. Python code of the build or the wheel cannot be reloaded
into the running server: the server restarts itself, and the browsers reload once it answers again.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from calculators import i18n
from sitebuild.engine import ROOT, WHEEL_GLOB, newer_than_wheel
from tools.compile_catalogs import stale_catalogs

log = logging.getLogger("mkdocs.sitebuild.dev")

#: Set by the MkDocs hook when the command is ``serve``: a plain build never rebuilds anything itself.
SERVING = False
#: When this server process started: Python code changed after it means a restart.
STARTED = time.time()
#: What the server watches besides ``docs/`` and ``mkdocs.yml``.
WATCHED = ("calculators", "rules_core", "sitebuild", "web", "overrides")
#: Served in place of the offline service worker: a dev server's pages change on every save, and a
#: worker that serves stored pages would show the last release's (the same origin as ``make serve``).
#: This one takes over, deletes every cache an earlier one stored (the engine snapshot too: the next
#: start is a full one) and unregisters; it has no ``fetch`` handler, so every request goes to the server.
DEV_SERVICE_WORKER = """\
// make dev: no offline copy. Removes what an earlier service worker stored, then itself.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  await Promise.all((await caches.keys()).map((name) => caches.delete(name)));
  await self.registration.unregister();
})()));
"""


def stale_steps(root: Path = ROOT) -> list[str]:
    """The ``make`` targets an edit needs before the site is rebuilt: ``catalogs`` when a ``.po`` is
    newer than its ``.mo``, ``wheel`` (which compiles the catalogs too) when one of the wheel's
    catalogs or modules is newer than the wheel. The ``.py`` files are :func:`code_changed`'s."""
    stale = stale_catalogs((root / "calculators" / "locale", root / "sitebuild" / "locale"))
    if any(po.is_relative_to(root / "calculators") for po in stale):
        return ["wheel"]
    wheels = sorted((root / "dist").glob(WHEEL_GLOB), key=lambda p: p.stat().st_mtime)
    if not wheels or newer_than_wheel(wheels[-1], root) is not None:
        return ["wheel"]
    return ["catalogs"] if stale else []


def code_changed(root: Path, since: float) -> Path | None:
    """A Python module of the build or of the wheel changed since ``since``, if any."""
    for package in ("sitebuild", "calculators", "rules_core"):
        for path in (root / package).rglob("*.py"):
            if path.stat().st_mtime > since:
                return path
    return None


def refresh(root: Path = ROOT, site_dir: Path | None = None) -> list[str]:
    """Bring catalogs and wheel up to date for the next build (``make``, the one recipe for both)
    and make this process read the new catalogs; return the targets run. ``site_dir``: the server's
    temporary folder, removed before a restart (the new server makes its own)."""
    changed = code_changed(root, STARTED)
    if changed is not None:
        log.info("%s changed: restarting the server", changed.relative_to(root))
        if site_dir is not None:
            shutil.rmtree(site_dir, ignore_errors=True)
        os.execv(sys.executable, sys.orig_argv)  # browsers reload once the new server answers
    steps = stale_steps(root)
    for target in steps:
        log.info("Rebuilding: make %s", target)
        subprocess.run(["make", "--no-print-directory", target], cwd=root, check=True, stdout=subprocess.DEVNULL)
    if steps:
        i18n.catalog.cache_clear()  # the forms and the self-test are built from the new catalogs
    return steps
