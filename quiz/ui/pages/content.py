"""Content: the health of the loaded content; checking an author's card pack (anyone) and
importing it (a supervisor); the imported packs, which a supervisor can remove; the guide."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from quiz.content.packs import (
    PackRemovalError,
    authoring_guide,
    check_pack,
    content_dir,
    import_pack,
    imported_packs,
    problems_frame,
    remove_pack,
    shown_folder,
)
from quiz.content.previews import preview_table
from quiz.content.uploads import MIB, UploadLimits
from quiz.model.cards import CARD_KINDS
from quiz.model.local_time import local_texts
from quiz.ui import resources
from quiz.ui import shell as shell_module
from quiz.ui.markdown import escape_markdown
from quiz.ui.streamlit_words import file_uploader
from quiz.ui.supervisor_gate import supervisor_unlocked
from quiz.ui.time_zone import viewer_zone

LIMITS = UploadLimits()
UPLOAD_ROUND = "content_upload_round"  # bumped after an import, which empties the uploader
IMPORTED = "content_imported"  # the message to show after the rerun that follows an import
REMOVED = "content_removed"  # the same after a removal
REMOVING = "content_removing"  # the pack whose removal waits for the supervisor's confirmation

shell = shell_module.current()
folder = content_dir()
st.title(shell.t("content.title"), anchor=False)


def show(table: pd.DataFrame) -> None:
    """A table with translated headers (text shown literally, never as markup)."""
    table.columns = [shell.t(f"content.col_{column}") for column in table.columns]
    st.dataframe(table, hide_index=True, width="stretch")


def show_message(key: str) -> None:
    """The message an action left for the rerun after it, shown once."""
    if key in st.session_state:
        kind, message = st.session_state.pop(key)
        (st.success if kind == "success" else st.error)(message)


def confirm_removal(pack: str, files: int) -> None:
    """Ask before a pack's cards leave every trainee's deck; remove it and reload on yes."""
    st.warning(shell.t("content.remove_confirm", pack=escape_markdown(pack), count=files))
    yes, no, _ = st.columns([1, 1, 2])
    if yes.button(shell.t("content.remove_yes"), type="primary", key=f"remove-yes-{pack}"):
        st.session_state.pop(REMOVING, None)
        try:
            remove_pack(folder, pack)
        except PackRemovalError:
            st.session_state[REMOVED] = ("error", shell.t("content.remove_failed", pack=escape_markdown(pack)))
        else:
            st.session_state[REMOVED] = ("success", shell.t("content.removed", pack=escape_markdown(pack)))
        resources.reload_content()
        st.rerun()
    if no.button(shell.t("content.remove_cancel"), key=f"remove-no-{pack}"):
        st.session_state.pop(REMOVING, None)
        st.rerun()


st.subheader(shell.t("content.health"), anchor=False)
if shell.content.problems:
    st.warning(shell.t("content.unhealthy", count=len(shell.content.problems)))
    show(problems_frame(shell.content.problems, shell.language))
else:
    st.success(shell.t("content.healthy", cards=len(shell.content.cards)))

checking, packs_area = st.container(), st.container()
with packs_area:  # drawn below the check, decided first: the check's Import button needs it
    st.subheader(shell.t("content.packs"), anchor=False)
    unlocked = supervisor_unlocked(shell, "content")  # importing and removing reach every trainee
    show_message(REMOVED)
    packs = imported_packs(folder)
    if packs.empty:
        st.caption(shell.t("content.no_packs", folder=escape_markdown(shown_folder(folder))))
    else:
        shown = packs.copy()
        shown["imported_at"] = local_texts(shown["imported_at"], viewer_zone(shell))
        show(shown)
        if unlocked:
            for row in packs.itertuples():
                name, files = str(row.pack), int(row.files)
                if st.session_state.get(REMOVING) == name:
                    confirm_removal(name, files)
                elif st.button(f"{shell.t('content.remove')}: {name}", icon=":material/delete:", key=f"remove-{name}"):
                    st.session_state[REMOVING] = name
                    st.rerun()

with checking:
    st.subheader(shell.t("content.import"), anchor=False)
    st.caption(shell.t("content.import_help", upload_mb=LIMITS.upload_bytes // MIB, files=LIMITS.files,
                       total_mb=LIMITS.total_bytes // MIB))
    with st.expander(shell.t("content.guide"), icon=":material/menu_book:"):
        guide = authoring_guide()
        if guide is None:
            st.info(shell.t("content.guide_missing"))
        else:
            if shell.language != "en":
                st.caption(shell.t("content.guide_english"))
            st.markdown(guide)  # the project's own document, not user data
    show_message(IMPORTED)
    if shell.trainee is None and not unlocked:  # no uploads from anonymous visitors (see docs/RELIABILITY.md)
        st.info(shell.t("content.sign_in_to_check"), icon=":material/login:")
        st.stop()
    upload = file_uploader(
        shell.language, shell.t("content.upload"), types=("yaml", "yml", "zip"), max_mb=LIMITS.upload_bytes // MIB,
        key=f"pack-upload-{st.session_state.get(UPLOAD_ROUND, 0)}",
    )
    if upload is not None:
        data = upload.getvalue()
        report = check_pack(upload.name, data, folder, limits=LIMITS)
        if report.problems:  # every problem at once, file by file: the upload's, the schema's, the checks'
            st.error(shell.t("content.pack_problems", count=len(report.problems)))
            show(problems_frame(report.problems, shell.language))
        else:
            st.success(shell.t("content.pack_ok", count=len(report.cards)))
        if report.cards:
            st.markdown(f"**{shell.t('content.preview')}**")
            kinds: dict[str, str] = {kind: shell.t(f"content.kind_{kind}") for kind in CARD_KINDS}
            show(preview_table(report.cards, shell.content.rulesets, shell.language, kinds, shell.t("answer.no_fix"),
                               no_listed=shell.t("answer.no_listed_infraction"),
                               left_to_judge=shell.t("content.left_to_judge")))
        if report.ok and not unlocked:
            st.info(shell.t("content.import_locked"), icon=":material/lock:")
        elif report.ok and st.button(shell.t("content.import_button", count=len(report.cards)), type="primary"):
            imported = import_pack(upload.name, data, folder, limits=LIMITS)
            if imported.imported_to is not None:
                resources.reload_content()
                st.session_state[IMPORTED] = ("success", shell.t(
                    "content.imported", count=len(imported.cards), pack=escape_markdown(imported.imported_to.name)))
                st.session_state[UPLOAD_ROUND] = st.session_state.get(UPLOAD_ROUND, 0) + 1
                st.rerun()
            st.error(shell.t("content.import_failed"))
            show(problems_frame(imported.problems, shell.language))
