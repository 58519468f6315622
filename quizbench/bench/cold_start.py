"""Cold start: ``streamlit run`` until the first card shows in headless Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from quiz.content.loader import PROJECT_ROOT

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def chromium_path() -> str | None:
    return os.environ.get("QUIZ_CHROMIUM") or shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cold_start_seconds(script: Path, env: dict[str, str], url_query: str, ready_text: str, pin: str | None = None,
                       timeout: float = 180) -> float:
    """Seconds from starting the server to ``ready_text`` visible in the browser; with
    ``pin``, the trainee named in the URL first signs in with it, as a user does."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page()
        start = time.perf_counter()
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=PROJECT_ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            while True:
                try:
                    page.goto(f"http://127.0.0.1:{port}/{url_query}", timeout=5000)
                    break
                except Exception:  # noqa: BLE001 - the server is not listening yet
                    if time.perf_counter() - start > timeout:
                        raise
                    time.sleep(0.05)
            if pin is not None:
                _sign_in(page, pin, timeout)
            page.get_by_text(ready_text).first.wait_for(timeout=timeout * 1000)
            return time.perf_counter() - start
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
            browser.close()


def _sign_in(page, pin: str, timeout: float) -> None:
    """Type the PIN into the sidebar's sign-in form (the name comes from the URL) and send it."""
    sidebar = page.get_by_test_id("stSidebar")
    field = sidebar.get_by_label("PIN", exact=True).first
    field.wait_for(timeout=timeout * 1000)
    field.fill(pin)
    sidebar.get_by_role("button", name="Sign in").click()
