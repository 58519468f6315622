"""Cards with findings written by the tests, loaded with the shipped rulesets
(``tests.content.card_tree``): evidence in the situation, the facts the trainee must find."""

from __future__ import annotations

EXTRA_DRAW = """\
cards:
  - id: t-floor-draw
    kind: scenario
    ruleset: yugioh-ocg
    title: {ja: 二枚目のドロー, en: A second card off the top}
    situation:
      ja: >-
        ドローフェイズに木村選手は山札から2枚を手に取り、すぐに「あっ、2枚来た」と言って手を止めました。
        相手の林選手も2枚目が見えており、それは手札誘発の「増殖するG」でした。木村選手は盤面をほとんど
        持っておらず、そのカード1枚で状況は変わりません。
      en: >-
        In his draw phase Kimura picked up two cards and stopped at once: "Oh, two came off." His opponent
        Hayashi saw the second one too: a Maxx "C". Kimura has almost nothing on the field, and that one card
        changes little.
    infraction: extra_draw
    facts: {}
    findings:
      intentional:
        evidence: {ja: 自分から手を止めて申告し、2枚目が相手にも見えていた。, en: "He stopped and said so himself; the opponent saw the card too."}
      decisive:
        evidence: {ja: 盤面がほぼなく、引いたカード1枚では展開が変わらない。, en: With an empty field the one card changes little.}
    expect: {penalty: warning, fixes: [return_extra_to_top]}
    source: {ja: "- 故意ではなく、過剰にカードを引いた\\n罰則：警告", en: "- Drew extra cards, not on purpose\\nPenalty: Warning"}
  - id: t-floor-look
    kind: scenario
    ruleset: yugioh-ocg
    title: {ja: めくれた山札, en: The deck that flipped}
    situation:
      ja: >-
        シャッフル中に岡田選手の山札の上から3枚が表向きに落ち、相手の森選手がそのうち1枚を見ました。見えたのは
        「ライトニング・ストーム」で、岡田選手の場には魔法・罠カードが2枚セットされています。
      en: >-
        While shuffling, the top three cards of Okada's deck fell face up and his opponent Mori saw one of them:
        Lightning Storm. Okada has two spells or traps set.
    infraction: extra_look
    facts: {}
    findings:
      decisive:
        evidence: {ja: 見えたのは盤面を一掃できるカードで、岡田選手にはセットカードが2枚ある。, en: "The card seen can clear the board, and Okada has two cards set."}
        arguable: {ja: 森選手がその情報で何を変えられるかは、残りの手札次第で判断が分かれる。, en: "How much Mori gains from knowing it depends on his hand; judges differ."}
    expect: {penalty: caution, fixes: [return_seen_cards]}
    source: {ja: "- 故意ではなく、過剰にカードを見た\\n罰則：注意", en: "- Saw extra cards, not on purpose\\nPenalty: Caution"}
"""


def telltale_card(situation_ja: str, situation_en: str = "He drew an extra card.") -> str:
    """A card with the finding ``decisive`` whose situation is the one given."""
    return f"""\
cards:
  - id: t-telltale
    kind: scenario
    ruleset: yugioh-ocg
    title: {{ja: 一枚多く, en: One too many}}
    situation:
      ja: "{situation_ja}"
      en: "{situation_en}"
    infraction: extra_draw
    facts: {{decisive: true}}
    findings:
      decisive:
        evidence: {{ja: 相手のライフは800で、引いたのはバーンカード。, en: The opponent is on 800 and the card is a burn spell.}}
    expect: {{penalty: duel_loss, fixes: []}}
    source: {{ja: "- 故意ではなく、過剰にカードを引いた", en: "- Drew extra cards, not on purpose"}}
"""


def narration_card(situation_ja: str, situation_en: str) -> str:
    """A card with the finding ``intentional`` (an accident) whose situation is the one given."""
    return f"""\
cards:
  - id: t-narration
    kind: scenario
    ruleset: yugioh-ocg
    title: {{ja: 一枚多く, en: One too many}}
    situation:
      ja: "{situation_ja}"
      en: "{situation_en}"
    infraction: extra_draw
    facts: {{intentional: false}}
    findings:
      intentional:
        evidence: {{ja: 2枚目が見えたまま、すぐに手を止めた。, en: The second card was in plain view and he stopped at once.}}
    expect: {{penalty: warning, fixes: [return_extra_to_top]}}
    source: {{ja: "- 故意ではなく、過剰にカードを引いた", en: "- Drew extra cards, not on purpose"}}
"""


def result_card(situation_ja: str, situation_en: str) -> str:
    """A card with the finding ``identifiable`` (the extra card cannot be told) whose
    situation is the one given."""
    return narration_card(situation_ja, situation_en).replace(
        "facts: {intentional: false}", "facts: {identifiable: false}").replace(
        "      intentional:\n", "      identifiable:\n").replace(
        "expect: {penalty: warning, fixes: [return_extra_to_top]}", "expect: {penalty: duel_loss, fixes: []}")
