"""The supervisor sign-in (AppTest, both databases): an account signs in and out, a password
changed elsewhere signs the session out, the old shared password makes the first admin once and
is then refused with a reason, an admin picks a store; the Stores page's join codes and audit log."""

from __future__ import annotations

import pytest

from quiz.access.oidc_links import link_oidc
from quiz.access.stores import codes_in, create_store, list_stores
from quiz.access.supervisors import PASSWORD_ENV, account, disable_account, set_password
from quiz.db import audit
from tests.scopes import EVERY_STORE
from tests.ui import supervisor

TEAM = "quiz/ui/pages/team.py"
STORES = "quiz/ui/pages/stores.py"
PASSWORD = "店長-gate-pass"
SHARED = "old-shared-password"


@pytest.fixture(autouse=True)
def gate(monkeypatch):
    yield from supervisor.fresh_gate(monkeypatch)


def messages(at) -> list[str]:
    return [m.value for m in (*at.error, *at.info)]


def test_a_password_changed_elsewhere_signs_the_session_out(open_app, store):
    made = supervisor.make_account(PASSWORD)
    at = supervisor.unlock(open_app(trainee=None, page=TEAM), PASSWORD)
    assert at.button(key="supervisor-sign-out") and "Tencho" in at.caption[0].value
    set_password(store, made.id, "a brand new password")
    at.run()
    assert not at.dataframe and at.text_input(key="supervisor-password")
    assert any("You were signed out" in text for text in messages(at))


def test_a_disabled_account_is_signed_out(open_app, store):
    supervisor.make_account("owner password", name="Owner")
    shop = create_store(store, "Shibuya", None)
    made = supervisor.make_account(PASSWORD, role="supervisor", store_id=shop.id)
    at = supervisor.unlock(open_app(trainee=None, page=TEAM), PASSWORD)
    assert at.button(key="supervisor-sign-out") and "Shibuya" in at.caption[0].value
    disable_account(store, account(store, made.name).seen, None)
    at.run()
    assert at.text_input(key="supervisor-password")


def test_the_shared_password_makes_the_first_admin_once_then_is_refused(open_app, store, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, SHARED)
    at = open_app(trainee=None, page=TEAM)
    assert any("No admin account exists yet" in c.value for c in at.caption)
    supervisor.unlock(at, SHARED, name="admin")
    assert at.button(key="supervisor-sign-out")
    assert [(e.actor, e.target) for e in audit.entries(store, EVERY_STORE) if e.action == "account_made"] == [
        (audit.SYSTEM, "admin")]
    later = open_app(trainee=None, page=TEAM)
    assert any("Supervisors now sign in with their own accounts" in c.value for c in later.caption)
    supervisor.unlock(later, SHARED, name="someone else")
    assert [e.value for e in later.error] == [
        "The shared supervisor password is no longer used: sign in with your own account "
        "(an admin makes accounts on the Stores page)."]


def test_an_admin_picks_a_store_and_a_supervisor_has_no_picker(open_app, store):
    supervisor.make_account(PASSWORD)
    shop = create_store(store, "Shibuya", None)
    supervisor.make_account("tencho two pass", name="Fuku", role="supervisor", store_id=shop.id)
    admin = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    picker = admin.sidebar.selectbox(key="supervisor_store_pick")
    assert picker.options == ["every store", "Shibuya"]
    assert any("Pick a store" in i.value for i in admin.info)  # a code is made for one store
    picker.select(shop.id).run()
    admin.button(key="join-code-submit").click().run()
    [code] = codes_in(store, EVERY_STORE)
    assert code.store_id == shop.id and code.code in admin.success[0].value
    fuku = supervisor.unlock(open_app(trainee=None, page=STORES), "tencho two pass", name="Fuku")
    assert not [s for s in fuku.sidebar.selectbox if s.key == "supervisor_store_pick"]
    assert [s.value for s in fuku.main.subheader] == ["Join codes"]  # no stores, accounts or audit log
    assert list(fuku.dataframe[0].value["Code"]) == [code.code]


def test_the_audit_log_is_shown_to_an_admin_with_its_csv(open_app, store):
    admin = supervisor.make_account(PASSWORD)
    create_store(store, "Shibuya", admin)
    at = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    assert "Audit log" in [s.value for s in at.subheader]
    log = at.dataframe[-1].value
    assert list(log["Action"]) == ["Store made", "Account made"]  # newest first, in words
    assert list(log["Who"]) == ["Tencho", audit.SYSTEM] and list(log["To whom or what"]) == ["Shibuya", "Tencho"]
    assert any(b.label == "Download this table (CSV)" for b in at.download_button)


def test_an_admin_makes_an_account_for_a_store(open_app, store):
    supervisor.make_account(PASSWORD)
    create_store(store, "Shibuya", None)
    at = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    at.text_input(key="account-new-name").input("Fuku")
    at.text_input(key="account-new-password").input("fuku password")
    next(b for b in at.button if b.label == "Make the account").click().run()
    assert "Account Fuku made." in [s.value for s in at.success]
    fuku = supervisor.unlock(open_app(trainee=None, page=TEAM), "fuku password", name="Fuku")
    assert fuku.button(key="supervisor-sign-out") and "Shibuya" in fuku.caption[0].value


def test_an_admin_moves_a_trainee_to_another_store_and_the_log_says_who(open_app, store):
    admin = supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", admin)
    kenta = store.trainee("Kenta")
    at = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    at.selectbox(key="trainee-move-who").set_value(kenta.id)
    at.selectbox(key="trainee-move-where").set_value(shibuya.id)
    next(b for b in at.button if b.label == "Move").click().run()
    assert "Kenta moved." in [s.value for s in at.success]
    moved = store.find_trainee("Kenta")
    assert moved is not None and moved.store_id == shibuya.id
    assert [(e.actor, e.target) for e in audit.entries(store, EVERY_STORE) if e.action == "trainee_moved"] == [
        ("Tencho", "Kenta")]


def test_a_store_s_supervisor_is_not_offered_moving_trainees(open_app, store):
    supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", None)
    supervisor.make_account("fuku password", name="Fuku", role="supervisor", store_id=shibuya.id)
    at = supervisor.unlock(open_app(trainee=None, page=STORES), "fuku password", name="Fuku")
    assert "Move a trainee to another store" not in [s.value for s in at.subheader]


OIDC_AUTH = {"redirect_uri": "http://127.0.0.1:8501/oauth2callback", "cookie_secret": "s" * 32,
             "client_id": "quiz", "client_secret": "secret",
             "server_metadata_url": "https://id.example.org/.well-known/openid-configuration"}


def test_the_organisation_sign_in_is_offered_only_where_auth_is_configured(open_app):
    supervisor.make_account(PASSWORD)
    at = open_app(trainee=None, page=TEAM)  # no secrets file: no button, no exception
    assert not [b for b in at.button if b.key == "supervisor-oidc-sign-in"]
    at.secrets["auth"] = OIDC_AUTH
    at.run()
    assert not at.exception and at.button(key="supervisor-oidc-sign-in")
    assert at.text_input(key="supervisor-password")  # the password form stays


def test_a_linked_provider_subject_opens_its_account_and_an_unlinked_one_is_told(open_app, store):
    supervisor.make_account("owner password", name="Owner")
    shop = create_store(store, "Shibuya", None)
    made = supervisor.make_account(PASSWORD, role="supervisor", store_id=shop.id)
    link_oidc(store, made.name, "https://id.example.org", "tencho-sub", None)
    at = open_app(trainee=None, page=TEAM)
    at.secrets["auth"] = OIDC_AUTH
    at.user = {"is_logged_in": True, "iss": "https://id.example.org", "sub": "someone-else"}
    at.run()
    assert not at.exception and not [b for b in at.button if b.key == "supervisor-sign-out"]
    assert [c.value for c in at.code] == [
        "python -m quiz accounts link --name NAME --issuer https://id.example.org --subject someone-else"]
    at.user = {"is_logged_in": True, "iss": "https://id.example.org", "sub": "tencho-sub"}
    at.run()
    assert not at.exception and at.button(key="supervisor-sign-out") and "Shibuya" in at.caption[0].value
    disable_account(store, account(store, made.name).seen, None)
    at.run()  # the session ends, and the link opens a disabled account no more
    assert not [b for b in at.button if b.key == "supervisor-sign-out"]


def test_a_store_just_made_is_listed_and_picked_for_its_join_code_at_once(open_app, store):
    from quiz.ui.supervisor_gate import PICK_KEY

    supervisor.make_account(PASSWORD)
    create_store(store, "Shibuya", None)
    at = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    at.text_input(key="store-new-name").input("Ikebukuro")
    next(b for b in at.button if b.label == "Make the store").click().run()
    assert not at.exception, at.exception
    assert "Store Ikebukuro made." in [s.value for s in at.success]
    made = next(info for info in list_stores(store) if info.name == "Ikebukuro")
    picker = at.sidebar.selectbox(key=PICK_KEY)
    assert picker.value == made.id and "Ikebukuro" in picker.options
    [stores] = [table.value for table in at.dataframe if "Trainees" in table.value.columns]
    assert list(stores["Store"]) == ["Ikebukuro", "Shibuya"] or set(stores["Store"]) == {"Ikebukuro", "Shibuya"}
    assert any(b.label == "Make a join code" for b in at.button)


def test_an_admins_store_pick_stays_from_page_to_page(open_app, store):
    from quiz.ui.supervisor_gate import PICK_KEY

    supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", None)
    at = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    at.sidebar.selectbox(key=PICK_KEY).set_value(shibuya.id).run()
    for page in (TEAM, "quiz/ui/pages/assignments.py", STORES):
        at.switch_page(page).run()
        assert not at.exception, at.exception
        assert at.sidebar.selectbox(key=PICK_KEY).value == shibuya.id, page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_pages_say_where_the_store_is_picked_and_the_join_code_entered(open_app, store, lang):
    """The join codes' help names the sidebar's section where a trainee enters one (not
    Progress), and "pick a store" says where: the sidebar's picker, by its label."""
    from quiz.model.words import t

    supervisor.make_account(PASSWORD)
    create_store(store, "Shibuya", None)
    at = supervisor.unlock(open_app(trainee=None, page=STORES, lang=lang), PASSWORD)
    captions = " ".join(c.value for c in at.caption)
    assert t("shell.join_store", lang) in captions and t("progress.title", lang) not in captions
    infos = [i.value for i in at.info]
    at.switch_page("quiz/ui/pages/assignments.py").run()
    infos += [i.value for i in at.info]
    picker = t("gate.store_picker", lang)
    assert len([text for text in infos if picker in text]) == 2, infos


def test_a_join_code_is_shown_with_its_link_and_qr_code(open_app, store):
    """Made: the code and the link (each with Streamlit's copy button) and the QR code of the
    link; a usable code picked in the list shows them again."""
    from quiz.report.join_qr import JOIN_PARAM

    supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", None)
    at = supervisor.unlock(open_app(trainee=None, page=STORES), PASSWORD)
    at.sidebar.selectbox(key="supervisor_store_pick").set_value(shibuya.id).run()
    next(b for b in at.button if b.label == "Make a join code").click().run()
    [code] = codes_in(store, EVERY_STORE)
    shown = [c.value for c in at.code]
    assert code.code in shown
    assert [text for text in shown if text.endswith(f"/?{JOIN_PARAM}={code.code}&lang=en")]
    assert at.get("image")  # the QR code (its reading is tests/report/test_join_qr.py)
    at.run()  # the list: the code picked, its QR code and link in a fold
    assert any(e.label == f"QR code and link of {code.code}" for e in at.expander)
    assert code.code in [c.value for c in at.code]


def test_the_audit_log_speaks_the_readers_language_and_is_searched(open_app, store):
    """In Japanese: acts, roles and stores in words, no stored codes (``account_made``,
    ``role=admin``) and no ``None``; a search keeps the rows that have the words."""
    admin = supervisor.make_account(PASSWORD)
    shibuya = create_store(store, "Shibuya", admin)
    from quiz.access.supervisors import create_account

    create_account(store, "Fuku", "fuku password", "supervisor", shibuya.id, admin)
    at = supervisor.unlock(open_app(trainee=None, page=STORES, lang="ja"), PASSWORD)
    log = at.dataframe[-1].value
    cells = " ".join(str(cell) for cell in log.to_numpy().ravel())
    assert list(log["操作"]) == ["アカウントを作成", "店舗を作成", "アカウントを作成"]
    assert "役割: 店舗の管理者（1店舗）" in cells and "Shibuya" in list(log["店舗"])
    for code in ("account_made", "role=", "None", "nan", "<NA>"):
        assert code not in cells, code
    at.text_input(key="audit-search").input("fuku").run()
    assert list(at.dataframe[-1].value["対象"]) == ["Fuku"]
    assert "3 行中 1 行" in [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_supervisor_sign_in_says_whom_it_is_for_how_long_and_how_to_get_an_account(open_app, lang):
    """Beside the sidebar's trainee sign-in, the page's form names itself, says trainees sign
    in in the sidebar, why a reload asks again, and where an account comes from."""
    from quiz.model.words import t

    supervisor.make_account(PASSWORD)
    at = open_app(trainee=None, page=TEAM, lang=lang)
    shown = [m.value for m in (*at.main.markdown, *at.main.caption)]
    for key in ("gate.form_help", "gate.no_account"):
        assert t(key, lang) in shown, key
    assert f"**{t('gate.form_title', lang)}**" in shown
