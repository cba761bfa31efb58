"""Build only: turns ``docs/`` plus ``calculators`` into the static site. Never shipped to browsers.

One job per module; :mod:`sitebuild.mkdocs_hook` is the only file that knows MkDocs, and
:func:`sitebuild.finish.finish` runs every step that works on built files, in order.
"""
