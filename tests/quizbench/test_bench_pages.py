"""Every page of the app is in the benchmark: measured against a floor of its own, or named
as not measured with the reason; and the floors route among the app's own pages."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from quiz.model.words import t
from quiz.ui.page_table import PAGE_TABLE, PAGES_DIR
from quizbench.bench.floors.shell import ROUTER_PAGE, router_entries
from quizbench.bench.pages import MEASURED, NOT_MEASURED
from quizbench.bench.scripts import FLOORS

APP_PAGES = [entry.file for entry in PAGE_TABLE]


def test_every_page_of_the_app_is_measured_or_said_why_not():
    measured = {page.file for page in MEASURED}  # a page may be measured in more than one case
    assert not measured & set(NOT_MEASURED)
    assert sorted(measured | set(NOT_MEASURED)) == sorted(APP_PAGES)  # none left out
    assert len({page.name for page in MEASURED}) == len(MEASURED)  # each case its own key in the JSON
    assert all(reason.strip() for reason in NOT_MEASURED.values())
    assert all((PAGES_DIR / file).is_file() for file in APP_PAGES)


def test_each_measured_page_has_a_floor_of_its_own():
    for page in MEASURED:
        floor = (FLOORS / page.floor_file).read_text(encoding="utf-8")
        assert 'run_floor(' in floor and f'"{page.file}"' in floor, page.name
    assert len({page.floor_file for page in MEASURED}) == len(MEASURED)


def test_the_floor_call_step_is_measured_on_practice_against_its_own_floor():
    case = next(page for page in MEASURED if page.name == "floor_call")
    assert (case.file, case.floor_file, case.signed_in, case.step) == ("practice.py", "floor_call.py", True, True)
    assert [page.name for page in MEASURED if page.step] == ["floor_call"]


def test_a_floor_routes_among_the_app_pages():
    for page in MEASURED:
        entries = router_entries(page.file)
        assert sorted(title for _, title, _, _ in entries) == sorted(t(e.title, "en") for e in PAGE_TABLE)
        assert [script for script, *_ in entries] == [None] + [ROUTER_PAGE] * (len(PAGE_TABLE) - 1)
        assert len({path for *_, path in entries}) == len(PAGE_TABLE)  # Streamlit keys a page by its URL path
    assert ROUTER_PAGE.is_file()


def test_a_floor_runs_with_its_router(monkeypatch, tmp_path):
    monkeypatch.setenv("QUIZ_DATABASE_URL", f"sqlite:///{tmp_path / 'floor.db'}")
    at = AppTest.from_file(str(FLOORS / "team.py"), default_timeout=120)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Team"
