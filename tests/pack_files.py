"""Card files and zips for the content pack tests, built in memory like an author's upload."""

from __future__ import annotations

import io
import stat
import zipfile

SCENARIO = """\
cards:
  - id: {id}
    kind: scenario
    ruleset: yugioh-ocg
    title: {{ja: "十五分後の着席", en: "Seated fifteen minutes in"}}
    situation:
      ja: "店舗大会の第2回戦。田中選手は指定の集合時間から15分後に席につきました。"
      en: "Store tournament, round 2. Tanaka sat down fifteen minutes after the designated time."
    infraction: tardiness
    facts: {{minutes_late: 15}}
    expect: {{penalty: match_loss, fixes: []}}
    difficulty: 1
    source:
      ja: |-
        - 指定の集合時間後１０分経過しても、自分の席についていなかった。
        罰則：マッチの敗北
      en: "- Was still not in their seat 10 minutes after the designated assembly time."
    style: exam
"""

KNOWLEDGE = """\
cards:
  - id: {id}
    kind: knowledge
    ruleset: pokemon-card-ja
    title: {{ja: "山の数", en: "How many piles"}}
    question: {{ja: "山札を4つの山に分けて積み直すのは？", en: "Splitting the deck into four piles and restacking is?"}}
    choices:
      - {{id: a, text: {{ja: "カット", en: "A cut"}}}}
      - {{id: b, text: {{ja: "シャッフル", en: "Shuffling"}}}}
    answer: b
    explanation: {{ja: "3つ以上の山はシャッフルです。", en: "Three or more piles is shuffling."}}
    source:
      ja: "※「カット」とは、デッキの上一部を取って2つの山を作り、取り分けた山をもう片方の山の下に置くことである。3つ以上の山に分ける場合はカットではなく、切る行為（シャッフル）と見なされる。"
      en: "A cut makes two piles; three or more is shuffling."
"""


def scenario(card_id: str = "pack-ygo-late-15") -> str:
    """A valid Yu-Gi-Oh! tardiness card (15 minutes: match loss)."""
    return SCENARIO.format(id=card_id)


def knowledge(card_id: str = "pack-pkm-k-piles") -> str:
    """A valid Pokémon knowledge card."""
    return KNOWLEDGE.format(id=card_id)


def zip_of(entries: dict[str, str | bytes], symlinks: dict[str, str] | None = None) -> bytes:
    """A zip holding ``entries`` (name -> content) and ``symlinks`` (name -> target)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in entries.items():
            info = zipfile.ZipInfo(name)  # keeps the name as given, even "../x" or "/x"
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, body.encode("utf-8") if isinstance(body, str) else body)
        for name, target in (symlinks or {}).items():
            info = zipfile.ZipInfo(name)
            info.create_system = 3  # Unix, so the mode bits are read
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return buffer.getvalue()
