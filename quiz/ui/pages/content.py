"""Content: the health of the loaded content, and importing an author's card pack."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from quiz.content.loader import CARD_KINDS
from quiz.content.packs import check_pack, content_dir, import_pack, imported_packs, problems_frame, shown_folder
from quiz.content.previews import preview_table
from quiz.content.uploads import MIB, UploadLimits
from quiz.model.local_time import local_texts
from quiz.ui import resources
from quiz.ui import shell as shell_module
from quiz.ui.markdown import escape_markdown
from quiz.ui.supervisor_gate import supervisor_unlocked
from quiz.ui.time_zone import viewer_zone

LIMITS = UploadLimits()
UPLOAD_ROUND = "content_upload_round"  # bumped after an import, which empties the uploader
IMPORTED = "content_imported"  # the message to show after the rerun that follows an import

shell = shell_module.current()
folder = content_dir()
st.title(shell.t("content.title"), anchor=False)


def show(table: pd.DataFrame) -> None:
    """A table with translated headers (text shown literally, never as markup)."""
    table.columns = [shell.t(f"content.col_{column}") for column in table.columns]
    st.dataframe(table, hide_index=True, width="stretch")


st.subheader(shell.t("content.health"), anchor=False)
if shell.content.problems:
    st.warning(shell.t("content.unhealthy", count=len(shell.content.problems)))
    show(problems_frame(shell.content.problems))
else:
    st.success(shell.t("content.healthy", cards=len(shell.content.cards)))

st.subheader(shell.t("content.import"), anchor=False)
if not supervisor_unlocked(shell, "content"):  # imported cards reach every trainee
    st.stop()
st.caption(shell.t("content.import_help", upload_mb=LIMITS.upload_bytes // MIB, files=LIMITS.files,
                   total_mb=LIMITS.total_bytes // MIB))
if IMPORTED in st.session_state:
    st.success(st.session_state.pop(IMPORTED))
upload = st.file_uploader(
    shell.t("content.upload"), type=["yaml", "yml", "zip"], max_upload_size=LIMITS.upload_bytes // MIB,
    key=f"pack-upload-{st.session_state.get(UPLOAD_ROUND, 0)}",
)
if upload is not None:
    data = upload.getvalue()
    report = check_pack(upload.name, data, folder, limits=LIMITS)
    if report.problems:
        st.error(shell.t("content.pack_problems", count=len(report.problems)))
        show(problems_frame(report.problems))
    else:
        st.success(shell.t("content.pack_ok", count=len(report.cards)))
    if report.cards:
        st.markdown(f"**{shell.t('content.preview')}**")
        kinds = {kind: shell.t(f"content.kind_{kind}") for kind in CARD_KINDS}
        show(preview_table(report.cards, shell.content.rulesets, shell.language, kinds, shell.t("answer.no_fix"),
                           no_listed=shell.t("answer.no_listed_infraction"),
                           left_to_judge=shell.t("content.left_to_judge")))
    if report.ok and st.button(shell.t("content.import_button", count=len(report.cards)), type="primary"):
        imported = import_pack(upload.name, data, folder, limits=LIMITS)
        if imported.imported_to is not None:
            resources.reload_content()
            st.session_state[IMPORTED] = shell.t(
                "content.imported", count=len(imported.cards), pack=escape_markdown(imported.imported_to.name))
            st.session_state[UPLOAD_ROUND] = st.session_state.get(UPLOAD_ROUND, 0) + 1
            st.rerun()
        st.error(shell.t("content.import_failed"))
        show(problems_frame(imported.problems))

st.subheader(shell.t("content.packs"), anchor=False)
packs = imported_packs(folder)
if packs.empty:
    st.caption(shell.t("content.no_packs", folder=escape_markdown(shown_folder(folder))))
else:
    packs["imported_at"] = local_texts(packs["imported_at"], viewer_zone(shell))
    show(packs)
