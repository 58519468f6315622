"""Fixtures of the reliability tests: the browser harness of tests/e2e/, reused as it is.

The fixtures are imported, not copied: ``browser`` (the run's one Chromium, shared with
tests/e2e through ``tests.e2e.shared_browser``), ``page`` (a fresh context per test, a
screenshot and the server log in test-artifacts/e2e/ when the test fails) and the
report hook that ``page`` reads. The modules that drive a browser start their own server
(a module-scoped ``server`` fixture); ``app_server`` and ``server`` are here for any that
do not. Tests that do not ask for these fixtures never start a browser or a server.
"""

from __future__ import annotations

from tests.e2e.conftest import (  # noqa: F401 - fixtures and the hook, registered by being here
    app_server,
    browser,
    page,
    pytest_runtest_makereport,
    server,
)
