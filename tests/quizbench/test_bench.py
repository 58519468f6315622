"""The benchmark cannot rot: ``bench --quick`` runs and every figure is present and sane."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("practice", "floor_call", "progress", "team", "items", "items_reports")


@pytest.mark.slow  # minutes: out of the fast suite, still in make test
def test_quick_bench_reports_every_figure(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, "-m", "quizbench.bench", "--quick", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["sizes"] == {"cards": 500, "attempts": 20_000, "trainees": 20}
    for key in ("content_load_cold_s", "yaml_floor_s", "content_load_cached_s", "answer_write_ms", "peak_rss_mb"):
        assert figures[key] > 0, key
    assert figures["content_load_cached_s"] < figures["content_load_cold_s"]
    assert figures["verdicts_per_s"] > 1000
    assert set(figures["pages"]) == set(PAGES)
    for name in PAGES:
        page = figures["pages"][name]
        assert page["rerun_s"] > 0 and page["floor_s"] > 0
        assert abs(page["ratio_to_floor"] - page["rerun_s"] / page["floor_s"]) < 1e-9
    if figures["cold_start_s"] is not None:  # with a browser on the machine
        assert figures["cold_start_s"] > 0 and figures["cold_start_floor_s"] > 0
    assert "content load / floor" in result.stdout and "target" in result.stdout
