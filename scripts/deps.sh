#!/usr/bin/env bash
# deps.sh -- install the Debian packages squint needs, and nothing else.
#
# Usage: scripts/deps.sh [extra-package ...]
# Checks each package with dpkg-query and calls apt-get only for the missing
# ones, so it is quick and silent when everything is present.  Runs apt-get
# through sudo when not root.  Extra packages (e.g. clang for `make fuzz`)
# can be passed as arguments.
set -euo pipefail

packages=(
    build-essential   # gcc, make, libc headers
    flex              # grammar/sql.l
    bison             # grammar/sql.y
    libsqlite3-dev    # execution, ground truth
    sqlite3           # the sqlite3 shell: builds the demo databases (examples/eval-demo)
    libz3-dev         # SMT solving
    libcjson-dev      # JSON input
    libcurl4-openssl-dev  # LLM endpoint client
    libcmocka-dev     # unit tests
    python3           # test scripts, the LLM test server (tests/llm/server.py)
    python3-jsonschema  # tests/cli/test_lint_sarif.sh: SARIF logs against the official schema
    man-db            # tests/cli/test_install.sh: 'man squint-lint' after make install
    groff-base        # ... and each page checked by groff for warnings
    git               # tests/cli/test_precommit.sh: scratch repositories
    pre-commit        # ... and the hooks run by pre-commit itself
    graphviz          # tests/cli/test_graph.sh: squint graph --format svg runs its dot
)
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing+=("$p")
    fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "deps: missing packages (${missing[*]}) and not root; install them and rerun" >&2
        exit 2
    fi
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh image has no package lists; refresh them only when an install fails.
if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    $sudo apt-get update -q >/dev/null
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
