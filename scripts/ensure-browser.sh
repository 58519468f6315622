#!/usr/bin/env bash
# Installs Debian's Chromium and CJK fonts for the browser tests when they are missing
# and apt-get can be used; otherwise says so (the browser tests then skip with a reason).
# fonts-noto-core comes with them: the completion PDF prints names in its scripts (Ethiopic,
# Thai, Arabic...) when it is there, and a visible "?" for them when it is not.
set -u
have_browser() { [ -n "${QUIZ_CHROMIUM:-}" ] && [ -x "${QUIZ_CHROMIUM}" ] || command -v chromium >/dev/null 2>&1; }
have_fonts() { fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; }
if have_browser && have_fonts; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-browser: no apt-get here; install chromium and fonts-noto-cjk by hand to run the browser tests" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "ensure-browser: not root and no sudo; install chromium and fonts-noto-cjk by hand" >&2
    exit 0
  fi
fi
echo "ensure-browser: installing chromium and fonts-noto-cjk" >&2
$SUDO apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk fonts-noto-core >/dev/null 2>&1 \
  || echo "ensure-browser: apt-get could not install chromium/fonts-noto-cjk" >&2
exit 0
