"""Packs kept in the database, as content: added to the content of the folders, and each
store's view of the result (what that store's trainees may draw).

A pack of a store is drawn only by that store's trainees; a pack of no store, a shipped card
or a card of the local content folder by everyone. The server keeps one ``Content`` with every
stored pack (its fingerprint covers them all, so it changes with any import or removal), and
``store_view`` derives from it, once per store, the content a trainee of that store is shown:
a card of another store's pack is not in it, so nothing downstream (dealing, exams, a card
asked for by id) can reach one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

from quiz.content.categories import card_category, category_key, category_keys, remember_category_keys
from quiz.content.loader import FINGERPRINT_MEMO, Content, add_card_text

PACKS_FOLDER = "packs"  # a stored pack's file is named packs/<pack>/<ruleset id>/<file>.yaml
_PACK_STORES = "pack_stores"  # memo: the folder prefix of each store's pack -> its store


@dataclass(frozen=True, slots=True)
class StoredPack:
    """A pack as the database keeps it: its files as checked (``<ruleset id>/<file>.yaml``, text)."""

    id: int
    name: str
    store_id: int | None  # None: every store's
    files: tuple[tuple[str, str], ...]


def pack_path(pack: str, path: str) -> str:
    """How the content names a stored pack's file (in problems and ``card_files``)."""
    return f"{PACKS_FOLDER}/{pack}/{path}"


def with_packs(base: Content, packs: Sequence[StoredPack]) -> Content:
    """``base`` (the folders' content, unchanged) with the cards of ``packs`` added, checked as
    files on disk are; ``card_stores`` says which store each store's pack card belongs to."""
    if not packs:
        return base
    content = Content(rulesets=base.rulesets, cards=dict(base.cards), card_files=dict(base.card_files),
                      themes=base.themes, problems=list(base.problems), card_stores=dict(base.card_stores))
    base_keys = category_keys(base)  # judged once for the folders (a snapshot brings them along)
    prefixes: dict[str, int] = {}
    added: list[str] = []
    for pack in packs:
        if pack.store_id is not None:
            prefixes[pack_path(pack.name, "")] = pack.store_id
        for path, text in pack.files:
            cards = add_card_text(content, pack_path(pack.name, path), text)
            added += cards
            if pack.store_id is not None:
                content.card_stores.update(dict.fromkeys(cards, pack.store_id))
    keys = dict(base_keys)
    for card_id in added:
        card = content.cards[card_id]
        keys[card_id] = category_key(card.ruleset, card_category(content, card))
    remember_category_keys(content, keys)
    content.memo(_PACK_STORES, lambda: prefixes)
    return content


def store_view(content: Content, store_id: int | None) -> Content:
    """What a trainee of ``store_id`` (None: a self-study player, or nobody signed in) may be
    dealt: every card but those of other stores' packs. ``content`` itself when that hides
    nothing; built once per store."""
    return content.memo(("store_view", store_id), lambda: _view(content, store_id))


def _view(content: Content, store_id: int | None) -> Content:
    hidden = {card_id for card_id, owner in content.card_stores.items() if owner != store_id}
    if not hidden:
        return content
    hidden_folders = tuple(prefix for prefix, owner in content.memo(_PACK_STORES, dict).items() if owner != store_id)
    view = Content(
        rulesets=content.rulesets,
        cards={card_id: card for card_id, card in content.cards.items() if card_id not in hidden},
        card_files={card_id: path for card_id, path in content.card_files.items() if card_id not in hidden},
        themes=content.themes,
        problems=[p for p in content.problems if not (hidden_folders and p.path.startswith(hidden_folders))],
        card_stores={card_id: owner for card_id, owner in content.card_stores.items() if card_id not in hidden},
    )
    keys = category_keys(content)
    remember_category_keys(view, {card_id: keys[card_id] for card_id in view.cards})
    # derived, not hashed card by card: the whole content's fingerprint and what is hidden from it
    digest = hashlib.sha256(content.fingerprint().encode("utf-8"))
    digest.update("\n".join(sorted(hidden)).encode("utf-8"))
    fingerprint = digest.hexdigest()[:16]
    view.memo(FINGERPRINT_MEMO, lambda: fingerprint)
    return view
