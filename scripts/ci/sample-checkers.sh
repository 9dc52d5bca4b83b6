#!/usr/bin/env bash
# npm run ci:sample-checkers: the checkers of the docs' code samples (tests/docs/code-sample-languages.test.ts),
# Debian's Go, PHP and C# compilers, installed through apt-get when missing (CI here and the pull request
# workflow's Debian container). Root only.
set -euo pipefail
packages=()
command -v python3 > /dev/null || packages+=(python3)
command -v javac > /dev/null || packages+=(default-jdk-headless)
command -v gofmt > /dev/null || packages+=(golang-go)
command -v php > /dev/null || packages+=(php-cli)
{ [ -f /usr/lib/mono/4.5/System.Net.Http.dll ] && command -v mcs > /dev/null; } || packages+=(mono-mcs libmono-system-net-http4.0-cil)
if [ ${#packages[@]} -eq 0 ]; then
  echo "ci:sample-checkers: python3, javac, gofmt, php and mcs are installed"
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" > /dev/null
echo "ci:sample-checkers: installed ${packages[*]}"
