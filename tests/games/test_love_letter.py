"""Love Letter (examples/new-games/love-letter.rules), played from the rulebook's own words."""

from collections import Counter

from rulelang.testing import Script

GAME = "examples/new-games/love-letter.rules"
DECK = Counter(Guard=5, Priest=2, Baron=2, Handmaid=2, Prince=2, King=1, Countess=1, Princess=1)


def start(top_first, players=2):
    """A game whose deck, once shuffled, deals `top_first` first (the set-aside card first)."""
    rest = DECK - Counter(top_first)
    order = list(top_first) + sorted(rest.elements())
    s = Script(GAME, players=players)
    s.shuffle(list(reversed(order)))
    return s


# With 2 players: 1 set aside, 3 face up, P1's card, P2's card, then each turn's draw.
FACEUP = ["Guard", "Guard", "Guard"]


def test_a_guard_naming_the_right_card_knocks_the_target_out():
    s = start(["Guard", *FACEUP, "Guard", "Priest", "King"])
    s.choose("play Guard on P2, naming Priest", by="P1")
    assert s.over and s.winners == ["P1"]
    assert "  P2 holds the Priest." in s.told()


def test_the_countess_must_be_played_with_the_king_or_a_prince():
    s = start(["Guard", *FACEUP, "Countess", "Priest", "King"])
    assert s.legal() == ["play Countess"]
    s = start(["Guard", *FACEUP, "Prince", "Priest", "Countess"])
    assert s.legal() == ["play Prince on P1", "play Prince on P2", "play Countess"]


def test_the_handmaid_protects_until_your_next_turn():
    s = start(["Guard", *FACEUP, "Handmaid", "Guard", "Priest", "Baron"])
    s.choose("play Handmaid", by="P1")
    # P2 holds a Guard and a Baron; P1 cannot be targeted.
    assert s.legal() == ["play Guard with no effect", "play Baron with no effect"]
    assert s.counter("protected", "P1") == 1
    s.choose("play Guard with no effect", by="P2")
    # P1's next turn has begun: the protection is gone, and P2 may be targeted again.
    assert s.counter("protected", "P1") == 0
    assert "play Priest on P2" in s.legal()


def test_discarding_the_princess_knocks_you_out():
    s = start(["Guard", *FACEUP, "Guard", "Princess", "Priest", "Prince"])
    s.choose("play Priest on P2", by="P1")
    s.choose("play Prince on P2", by="P2")
    assert s.over and s.winners == ["P1"]
