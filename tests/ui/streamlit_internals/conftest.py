"""Fixtures for the package that reaches into Streamlit's internals."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from packaging.specifiers import SpecifierSet

from quiz.ui.streamlit_internals import version

NOT_WRITTEN_FOR = SpecifierSet("==0.0.0")


@pytest.fixture(autouse=True)
def refusals_not_yet_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no refusal logged yet (``version.fits`` logs each once per process)."""
    monkeypatch.setattr(version, "_said", set())


@pytest.fixture
def another_streamlit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package as under a Streamlit it was not written for (its one check made afresh)."""
    monkeypatch.setattr(version, "STREAMLIT_VERSIONS", NOT_WRITTEN_FOR)
    version.supported.cache_clear()
    yield
    version.supported.cache_clear()
