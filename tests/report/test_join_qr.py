"""A join code's link and QR code: the QR code read back by a decoder (zxing-cpp) is the
link, which opens the app's root with the code and the language in its query."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from quiz.report.join_qr import app_root, join_link, qr_matrix, qr_png

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp (requirements-dev.txt) decodes the QR code")


@pytest.mark.parametrize("root", ["http://localhost:8501", "https://judges.example.jp/quiz/"])
def test_the_qr_code_reads_back_as_the_link(root: str) -> None:
    link = join_link(root, "ABCD2345", "ja")
    assert link == f"{root.rstrip('/')}/?join=ABCD2345&lang=ja"
    [found] = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr_png(link))))
    assert found.format == zxingcpp.BarcodeFormat.QRCode and found.text == link


def test_the_app_root_is_the_url_of_a_page_without_the_page() -> None:
    assert app_root("https://judges.example.jp/quiz/stores", "stores") == "https://judges.example.jp/quiz"
    assert app_root("http://localhost:8501/stores/", "stores") == "http://localhost:8501"
    assert app_root("http://localhost:8501", "stores") == "http://localhost:8501"


def test_the_matrix_is_the_same_link_encoded_again() -> None:
    """What a test without a decoder compares: one link, one matrix; another code, another."""
    link = join_link("http://localhost:8501", "ABCD2345", "en")
    assert qr_matrix(link) == qr_matrix(link) != qr_matrix(link.replace("ABCD", "WXYZ"))
