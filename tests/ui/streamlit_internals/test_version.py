"""quiz.ui.streamlit_internals.version: the one range of Streamlit versions the package is
written for, and the one check of it.

The first test fails when requirements.txt pins, or the environment holds, a Streamlit outside
the range: then the package has to be read again against it.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import streamlit

from quiz.ui.streamlit_internals import version

REQUIREMENTS = Path(__file__).resolve().parents[3] / "requirements.txt"


def test_the_pinned_and_installed_streamlit_are_the_ones_written_for() -> None:
    pinned = re.search(r"^streamlit==(\S+)$", REQUIREMENTS.read_text(encoding="utf-8"), re.MULTILINE)
    assert pinned is not None
    assert pinned.group(1) == streamlit.__version__
    assert streamlit.__version__ in version.STREAMLIT_VERSIONS
    assert version.version_problem() is None
    assert version.supported()


def test_another_streamlit_is_refused_with_one_clear_error(another_streamlit, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("ERROR", logger=version.__name__):
        assert not version.supported()
        assert not version.supported()  # checked once: no second error
    [record] = caplog.records
    message = record.getMessage()
    assert message.startswith(f"Streamlit {streamlit.__version__} is installed; quiz.ui.streamlit_internals "
                              "is written for Streamlit ==0.0.0: ")
    assert ("the rerun limit, the upload quota, the forgetting of stale widgets and the batched "
            "hand-off to the event loop stay off") in message


def test_a_patch_fits_only_a_version_written_for_and_internals_found_as_written(caplog) -> None:
    patch_log = logging.getLogger("a.patch")
    assert version.fits(list, "the patch stays off", patch_log)
    with caplog.at_level("ERROR", logger="a.patch"):
        assert not version.fits(lambda: ["Thing.method is gone", "another"], "the patch stays off", patch_log)
    assert caplog.messages == ["the patch stays off: Thing.method is gone; another"]
    with caplog.at_level("ERROR", logger="a.patch"):  # asked again (a patch asked for on every run):
        assert not version.fits(lambda: ["Thing.method is gone", "another"], "the patch stays off", patch_log)
        assert not version.fits(lambda: ["Thing.other is gone"], "the patch stays off", patch_log)
    assert caplog.messages == ["the patch stays off: Thing.method is gone; another",  # said once,
                               "the patch stays off: Thing.other is gone"]  # a new refusal said


def test_under_another_streamlit_no_patch_fits_nor_reads_the_internals(another_streamlit) -> None:
    read: list[bool] = []
    assert not version.fits(lambda: read.append(True) or [], "the patch stays off", logging.getLogger("a.patch"))
    assert read == []
