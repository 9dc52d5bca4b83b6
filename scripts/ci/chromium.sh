#!/usr/bin/env bash
# npm run ci:chromium: Debian's chromium, which the browser tests launch (/usr/lib/chromium/chromium), installed
# through apt-get when it is missing (CI here and the pull request workflow's Debian container). Root only.
set -euo pipefail
if [ -x /usr/lib/chromium/chromium ]; then
  echo "ci:chromium: /usr/lib/chromium/chromium is installed"
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
echo "ci:chromium: installed $(/usr/lib/chromium/chromium --version)"
