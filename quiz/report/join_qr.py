"""A store's join code to share: the link that opens the app's sign-up with the code filled
in, and that link as a QR code (a PNG) for a phone's camera."""

from __future__ import annotations

import io
from urllib.parse import urlencode

import segno

JOIN_PARAM = "join"  # the query parameter the sign-up reads (quiz.ui.sign_in)
QR_SCALE = 8  # pixels per module: a 20-character link is ~37 modules, ~300 px with its border


def join_link(app_root: str, code: str, language: str) -> str:
    """The app at ``app_root`` (its default page's URL) opening the sign-up with ``code``
    filled in, in ``language``."""
    return f"{app_root.rstrip('/')}/?{urlencode({JOIN_PARAM: code, 'lang': language})}"


def app_root(page_url: str, page_path: str) -> str:
    """The app's root from the URL of one of its pages (``page_path``, Streamlit's url path)."""
    url = page_url.rstrip("/")
    return url[: -len(page_path) - 1] if page_path and url.endswith("/" + page_path) else url


def qr_matrix(text: str) -> tuple[tuple[int, ...], ...]:
    """The QR code of ``text``: its modules, row by row (1 dark), without the quiet zone."""
    return tuple(tuple(row) for row in segno.make_qr(text, error="m").matrix)


def qr_png(text: str) -> bytes:
    """The QR code of ``text`` as a PNG, with the standard quiet zone."""
    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="png", scale=QR_SCALE, border=4)
    return out.getvalue()
