"""The page benchmark's reruns compile each script once, as a server does."""

from __future__ import annotations

from pathlib import Path

from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test, local_script_runner

from quizbench.bench.page_timer import server_script_cache

SCRIPT = "import streamlit as st\nst.write('hello')\n"


def test_reruns_keep_the_compiled_script_as_a_servers_runtime_does(tmp_path: Path, monkeypatch) -> None:
    script = tmp_path / "page.py"
    script.write_text(SCRIPT, encoding="utf-8")
    compiled: list[str] = []
    original = ScriptCache.get_bytecode

    def counted(self: ScriptCache, path: str):
        if path not in self._cache:
            compiled.append(path)
        return original(self, path)

    monkeypatch.setattr(ScriptCache, "get_bytecode", counted)
    app = AppTest.from_file(str(script))
    app.run()
    app.run()
    assert len(compiled) == 2  # AppTest alone: a new cache, so a compile, on every run
    compiled.clear()
    with server_script_cache() as kept:
        app = AppTest.from_file(str(script))
        for _ in range(3):
            app.run()
            assert not app.exception
        assert app.markdown[0].value == "hello"
    assert compiled == [str(script.resolve())]  # once, for the three runs
    assert isinstance(kept, ScriptCache)
    assert app_test.ScriptCache is ScriptCache and local_script_runner.ScriptCache is ScriptCache  # put back
