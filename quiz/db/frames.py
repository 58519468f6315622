"""Attempt rows as a typed pandas DataFrame, the shape the report stage reads.

pandas is imported only where a frame is built: answering a card never needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from quiz.model.attempt import ATTEMPT_FIELDS, FIX_FIELDS

if TYPE_CHECKING:
    import pandas as pd

FRAME_COLUMNS: tuple[str, ...] = ("id", *ATTEMPT_FIELDS)
_TEXT = "str"
FRAME_DTYPES: dict[str, Any] = {
    "id": "int64",
    "trainee_id": "int64",
    "correct": "bool",
    "penalty_steps": "Int64",
    "seconds": "float64",
    "answered_at": "datetime64[us, UTC]",
    "exam_id": "Int64",
    "variant_values": "object",  # a dict (JSON), or None
    "findings": "object",  # a list of FindingRecord.stored() dicts (JSON), or None
    "penalty_follows_findings": "boolean",
    "investigation": "object",  # a floor call's InvestigationRecord.stored() (JSON), or None
    **{name: "object" for name in FIX_FIELDS},
}


def attempts_frame(rows: Iterable[Mapping[Any, Any]]) -> pd.DataFrame:
    """Attempt rows (``id`` and every AttemptRecord field) as a typed DataFrame.

    ``answered_at`` is tz-aware UTC, fixes are tuples, nullable integers are ``Int64``
    and text columns use pandas' string dtype (``variant_values`` stays a dict or None); an
    empty frame has the same columns.
    """
    import pandas as pd

    frame = pd.DataFrame.from_records(list(rows), columns=list(FRAME_COLUMNS))
    dtypes = {name: FRAME_DTYPES.get(name, _TEXT) for name in FRAME_COLUMNS}
    frame["answered_at"] = pd.to_datetime(frame["answered_at"], utc=True)
    return frame.astype(dtypes)
