#!/usr/bin/env bash
# The test command (README): makes .venv, installs lwstutor with its test extras, builds the lab
# control plane binaries (cached outside the repo; the first build is long), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
if command -v go >/dev/null 2>&1; then
  start=$(date +%s)
  bash tests/e2e/labcluster/build.sh >/dev/null
  echo "lab control plane binaries ready ($(( $(date +%s) - start ))s)"
  if [ "${LAB_NODE:-real}" = real ]; then
    # The real lab node: Debian's runc, CNI plugins, busybox-static (root installs them), then
    # kubelet, kube-proxy, containerd and CoreDNS built into their own cache.
    start=$(date +%s)
    bash tests/e2e/labnode/install-deps.sh || [ "${CI:-}" != true ]
    bash tests/e2e/labnode/build.sh >/dev/null
    echo "lab node binaries ready ($(( $(date +%s) - start ))s)"
  fi
else
  echo "go is not installed: the e2e tests will skip (or fail when CI=true)"
fi
# The browser tests (marker browser, tests/serve) drive Debian's chromium through Playwright, which
# never downloads one, with a Korean monospace font for the Korean tutor. As root, install them when
# missing; otherwise they skip and say why (under CI=true they fail).
if [ ! -x /usr/lib/chromium/chromium ] || ! fc-list 2>/dev/null | grep -qi nanumgothiccoding; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    start=$(date +%s)
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fonts-nanum-coding \
        >/dev/null; } || [ "${CI:-}" != true ]
    echo "chromium for the browser tests ready ($(( $(date +%s) - start ))s)"
  else
    echo "chromium is not installed (Debian: apt-get install chromium fonts-dejavu-core fonts-nanum-coding): the browser tests will skip"
  fi
fi
# The contracts first: a layering, lint or type error fails in seconds, not after the suite.
.venv/bin/ruff check tutor lessons tests
.venv/bin/lint-imports --no-cache >/dev/null || .venv/bin/lint-imports --no-cache
.venv/bin/mypy  # tutor and lessons, as [tool.mypy] in pyproject.toml says
if [ $# -gt 0 ]; then
  exec .venv/bin/python -m pytest -ra --durations=25 "$@"
fi
# The whole suite in two parts. Everything but the lab runs on one worker per core (pytest-xdist):
# each test has its own temp dirs and state. The e2e tests share one lab (its control plane, its
# real node and the network namespace that node lives in), so they run in one process after.
status=0
# The screen audit (marker audit, tests/ui/test_screen_audit.py) runs here too: every screen read as
# the learner reads it, at four sizes in both languages.
.venv/bin/python -m pytest -ra --durations=25 -n auto -m "not e2e" || status=$?
.venv/bin/python -m pytest -ra --durations=25 -m e2e || status=$?
exit "$status"
