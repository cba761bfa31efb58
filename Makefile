# Two entry points: `make serve` and `make test`. Both set everything up on a fresh machine.
SHELL := /bin/bash
export NO_MKDOCS_2_WARNING := 1
# Python's bytecode cache kept (gitignored __pycache__/) where the environment turns it off: without it
# every run compiles our modules and pytest rewrites every test module again (collecting the suite: 5.2 s
# a worker against 2.2 s; the unit and site tests: 33 s against 26 s). The wheel and the site hold no .pyc.
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000


.PHONY: serve dev test lint build site wheel catalogs chromium unit browser clean bench variants

serve: build
	@echo "Serving the site on http://$(HOST):$(PORT)/ (Ctrl+C to stop)"
	$(PY) -m tools.serve --host $(HOST) --port $(PORT) site

# The editor's loop: mkdocs serve, which rebuilds and reloads on each save (catalogs and wheel included:
# sitebuild/dev.py); no offline copy, so no page is ever stale.
dev: wheel node_modules/.installed
	$(PY) -m mkdocs serve --strict --dev-addr $(HOST):$(PORT)

test: lint build chromium variants
	$(PY) -m pytest -n 2 --dist worksteal --durations=15

# The site variants the tests build (tests/kept.py): the pseudo-locale's (tests/pseudo.py) and a revision
# of the rules' (tests/revision.py), built again only when the checkout changed: a test run on an unchanged
# checkout does not pay for them.
variants: build
	$(PY) -m tests.pseudo
	$(PY) -m tests.revision

# ESLint (pinned in package.json, eslint.config.mjs) over the browser code and the Node tools: any warning fails.
lint: node_modules/.installed
	npx --no-install eslint --max-warnings 0 web tools/*.mjs sitebuild/*.mjs

unit: $(VENV)/.installed catalogs
	$(PY) -m pytest tests/unit rules_core calculators sitebuild

browser: build chromium variants
	$(PY) -m pytest -n 2 --dist worksteal tests/browser

# The wheel and the site are built again only when what they are made from changed, or the commit
# (tests/kept.py: the stamp in build/site.sha256): `make test` on a built checkout started ~5 s later
# for building the same bytes again.
build:
	@if test -x $(PY) && $(PY) -m tests.kept current; then echo "site/ is current"; else $(MAKE) --no-print-directory site; fi

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

catalogs: $(VENV)/.installed
	$(PY) tools/compile_catalogs.py

# Reproducible builds (the same commit gives the same bytes, DESIGN.md "Offline, security, build"):
# the wheel's zip dates are one fixed instant, so a release that does not change the calculators
# keeps its wheel, its hashed folder and every phone's engine snapshot; the site's only date (the
# sitemap's) is the commit's.
WHEEL_EPOCH := 315532800
SITE_EPOCH = $(shell git log -1 --format=%ct 2>/dev/null || echo $(WHEEL_EPOCH))

wheel: $(VENV)/.installed catalogs
	rm -rf dist build/lib build/bdist.*  # not build/hosting: the last site build wrote it
	SOURCE_DATE_EPOCH=$(WHEEL_EPOCH) $(PY) -m build --wheel --no-isolation --outdir dist . > /dev/null
	@ls dist/*.whl

site: wheel node_modules/.installed
	rm -f build/site.sha256
	SOURCE_DATE_EPOCH=$(SITE_EPOCH) $(PY) -m mkdocs build --strict --quiet
	$(PY) -m tests.kept stamp

# The browser tests run Chromium's headless shell; the benchmark, the desktop browser (tools/chromium.py).
chromium: $(VENV)/.installed
	$(PY) -m tools.chromium --ensure --shell

# Start-up, latency, bytes and Lighthouse figures (not a test): table on stdout, JSON in bench-results/.
# OLD_SITE=<another build's site/> (e.g. main's): (n) compares the offline check with it in the same run.
bench: build
	$(PY) -m tools.chromium --ensure
	$(PY) -m tools.bench --site site $(if $(OLD_SITE),--old-site $(OLD_SITE))

clean:
	rm -rf site dist build *.egg-info
