"""Content: the health of the loaded content; checking an author's card pack (anyone) and
importing it (a supervisor, for their store; an admin, for the store picked or every store);
the packs stored in the database, which a supervisor can remove; the guide."""

from __future__ import annotations

import hashlib
import math
from typing import cast

import pandas as pd
import streamlit as st

from quiz.access.stores import store_name
from quiz.access.work_limits import claim_pack_check, one_check_at_a_time
from quiz.content.packs import PackReport, authoring_guide, problems_frame
from quiz.content.previews import preview_table
from quiz.content.uploads import MIB, UploadLimits
from quiz.db.packs import PackInfo, check_upload, import_pack, list_packs, remove_pack
from quiz.model.cards import CARD_KINDS
from quiz.model.errors import OutOfScopeError, PackRemovalError
from quiz.model.local_time import local_texts
from quiz.model.scope import Scope
from quiz.ui import shell as shell_module
from quiz.ui.markdown import escape_markdown
from quiz.ui.streamlit_internals import client
from quiz.ui.streamlit_internals.objects import UploadedFile
from quiz.ui.streamlit_internals.upload_limit import QUOTA, arm_uploads, release_uploads, upload_refusal
from quiz.ui.streamlit_internals.words import file_uploader
from quiz.ui.supervisor_gate import supervisor_scope
from quiz.ui.time_zone import viewer_zone

LIMITS = UploadLimits()
UPLOAD_ROUND = "content_upload_round"  # bumped after an import, which empties the uploader
IMPORTED = "content_imported"  # the message to show after the rerun that follows an import
REMOVED = "content_removed"  # the same after a removal
REMOVING = "content_removing"  # the pack whose removal waits for the supervisor's confirmation
CHECKED = "content_checked"  # (digest of the upload, its check): a rerun of the page checks nothing again

shell = shell_module.current()
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


def confirm_removal(scope: Scope, pack: PackInfo) -> None:
    """Ask before a pack's cards leave every trainee's deck; remove it on yes (every server
    drops its cards at once)."""
    st.warning(shell.t("content.remove_confirm", pack=escape_markdown(pack.name), count=pack.files))
    yes, no, _ = st.columns([1, 1, 2])
    if yes.button(shell.t("content.remove_yes"), type="primary", key=f"remove-yes-{pack.id}"):
        st.session_state.pop(REMOVING, None)
        try:
            remove_pack(shell.store, scope.supervisor, pack.id)
        except (PackRemovalError, OutOfScopeError):
            st.session_state[REMOVED] = ("error", shell.t("content.remove_failed", pack=escape_markdown(pack.name)))
        else:
            st.session_state[REMOVED] = ("success", shell.t("content.removed", pack=escape_markdown(pack.name)))
        st.rerun()
    if no.button(shell.t("content.remove_cancel"), key=f"remove-no-{pack.id}"):
        st.session_state.pop(REMOVING, None)
        st.rerun()


def packs_table(packs: list[PackInfo]) -> pd.DataFrame:
    """The packs listed: name, store (every store's: none named), cards, files, when imported."""
    every = shell.t("gate.every_store")
    return pd.DataFrame({
        "pack": [p.name for p in packs],
        "store": [store_name(shell.store, p.store_id) or every for p in packs],
        "cards": [p.cards for p in packs],
        "files": [p.files for p in packs],
        "imported_at": local_texts(pd.Series([p.imported_at for p in packs], dtype="datetime64[ns, UTC]"),
                                   viewer_zone(shell)),
    })


def checked_pack(upload: UploadedFile) -> PackReport | None:
    """The check of ``upload``: this session's last one when it is the same file (a rerun checks
    nothing again), else a new one within the viewer's and their address's check limit and
    after any other check on this server (``quiz.access.work_limits``); None, said why, when
    it must wait."""
    data = upload.getvalue()
    digest = hashlib.sha256(upload.name.encode("utf-8", "surrogatepass") + b"\0" + data).hexdigest()
    kept = st.session_state.get(CHECKED)
    if kept is not None and kept[0] == digest:
        return cast(PackReport, kept[1])
    person = (f"supervisor:{scope.supervisor.id}" if scope is not None
              else f"trainee:{shell.trainee.id}" if shell.trainee is not None else "anonymous")
    allowed = claim_pack_check(shell.store, person, client.address())
    if not allowed.granted:
        st.warning(shell.t("content.check_wait", seconds=math.ceil(allowed.wait)), icon=":material/hourglass:")
        return None
    with one_check_at_a_time() as had:
        if not had:
            st.warning(shell.t("content.check_busy"), icon=":material/hourglass:")
            return None
        report = check_upload(shell.store, upload.name, data, limits=LIMITS)
    st.session_state[CHECKED] = (digest, report)
    return report


st.subheader(shell.t("content.health"), anchor=False)
if shell.content.problems:
    st.warning(shell.t("content.unhealthy", count=len(shell.content.problems)))
    show(problems_frame(shell.content.problems, shell.language))
else:
    st.success(shell.t("content.healthy", cards=len(shell.content.cards)))

checking, packs_area = st.container(), st.container()
with packs_area:  # drawn below the check, decided first: the check's Import button needs it
    st.subheader(shell.t("content.packs"), anchor=False)
    scope = supervisor_scope(shell, "content")  # importing and removing reach every trainee
    unlocked = scope is not None
    show_message(REMOVED)
    if scope is not None:  # a supervisor's store's packs and every store's; an admin's pick
        packs = list_packs(shell.store, scope.store_id, scope.every_store)
    else:  # what the viewer's store draws
        packs = list_packs(shell.store, shell.trainee.store_id if shell.trainee is not None else None)
    if not packs:
        st.caption(shell.t("content.no_packs"))
    else:
        show(packs_table(packs))
        if scope is not None:
            for pack in packs:
                if not scope.supervisor.sees(pack.store_id):  # every store's pack: an admin's to remove
                    continue
                if st.session_state.get(REMOVING) == pack.id:
                    confirm_removal(scope, pack)
                elif st.button(f"{shell.t('content.remove')}: {pack.name}", icon=":material/delete:",
                               key=f"remove-{pack.id}"):
                    st.session_state[REMOVING] = pack.id
                    st.rerun()

with checking:
    st.subheader(shell.t("content.import"), anchor=False)
    st.caption(shell.t("content.import_help", upload_mb=LIMITS.upload_bytes // MIB, files=LIMITS.files,
                       total_mb=LIMITS.total_bytes // MIB))
    with st.expander(shell.t("content.guide"), icon=":material/menu_book:"):
        guide = authoring_guide(shell.language)
        if guide is None:
            st.info(shell.t("content.guide_missing"))
        else:
            st.markdown(guide)  # the project's own document, not user data
    show_message(IMPORTED)
    if shell.trainee is None and not unlocked:  # no uploads from anonymous visitors (see docs/RELIABILITY.md)
        st.info(shell.t("content.sign_in_to_check"), icon=":material/login:")
        release_uploads()  # signed out with a file in the uploader: the server keeps it no longer
        st.stop()
    arm_uploads()  # this session may upload now, within its quota (quiz.ui.streamlit_internals.upload_limit)
    upload = file_uploader(
        shell.language, shell.t("content.upload"), types=("yaml", "yml", "zip"), max_mb=LIMITS.upload_bytes // MIB,
        key=f"pack-upload-{st.session_state.get(UPLOAD_ROUND, 0)}",
    )
    refusal = upload_refusal()
    if refusal is not None:  # said here, in the viewer's language: the uploader's own error is Streamlit's
        st.warning(shell.t(f"content.upload_refused_{refusal.value}", files=QUOTA.session_files,
                           mb=QUOTA.session_bytes // MIB), icon=":material/block:")
    report = checked_pack(upload) if upload is not None else None
    if upload is not None and report is not None:
        data = upload.getvalue()
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
            assert scope is not None  # unlocked
            # the scope's store's pack; an admin's of every store when every store is picked
            imported = import_pack(shell.store, scope.supervisor, upload.name, data, store_id=scope.store_id,
                                   limits=LIMITS)
            if imported.imported is not None:
                st.session_state[IMPORTED] = ("success", shell.t(
                    "content.imported", count=len(imported.cards), pack=escape_markdown(imported.imported)))
                st.session_state[UPLOAD_ROUND] = st.session_state.get(UPLOAD_ROUND, 0) + 1
                release_uploads()  # the emptied uploader is a new widget: the imported file is done with
                st.rerun()
            st.error(shell.t("content.import_failed"))
            show(problems_frame(imported.problems, shell.language))
