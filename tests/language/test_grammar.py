"""The grammar (grammar/rulelang.lark) and the AST that build_file makes of each construct."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lark import Lark
from lark import logger as lark_logger

from rulelang.errors import RulelangError
from rulelang.syntax import ast
from rulelang.syntax.build import build_file
from rulelang.syntax.parser import _RulesIndenter, grammar_text

REPO = Path(__file__).resolve().parents[2]


def _parse(text: str) -> tuple:
    return build_file(text, "x.rules").decls


def _body(stmts: str) -> tuple:
    """Parse statements as the body of a turn; return the statements."""
    indented = "".join(f"  {line}\n" if line else "\n" for line in stmts.splitlines())
    decls = _parse(f'game "x"\nturn:\n{indented}')
    assert isinstance(decls[1], ast.BlockDecl) and decls[1].kind == "turn"
    return decls[1].body


def _expr(text: str):
    (stmt,) = _body(f"let v = {text}")
    assert isinstance(stmt, ast.Let)
    return stmt.value


# ------------------------------------------------------------------ the grammar itself


def test_grammar_text_is_the_grammar_file() -> None:
    text = grammar_text()
    assert text == (REPO / "grammar" / "rulelang.lark").read_text(encoding="utf-8")
    assert "start:" in text


def test_lalr_parser_builds() -> None:
    Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=_RulesIndenter(),
         propagate_positions=True, maybe_placeholders=True, start=["start", "expr"])


def test_lalr_parser_has_no_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    """BUG: a shift/reduce conflict on NAME, between the empty ``quantity`` (-> q_default) of a
    query and a NAME starting ``sum_expr "to" sum_expr`` in ``iterable``; lark resolves it as a
    shift, so ``for d in White in middle:`` cannot be parsed (see the test below)."""
    caplog.set_level(logging.DEBUG, logger=lark_logger.name)
    old = lark_logger.level
    lark_logger.setLevel(logging.DEBUG)
    try:
        Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=_RulesIndenter(),
             start=["start", "expr"], debug=True)
    finally:
        lark_logger.setLevel(old)
    messages = [r.getMessage() for r in caplog.records if r.name == lark_logger.name]
    assert not any("conflict" in m.lower() for m in messages), "\n".join(messages)


def test_for_over_a_kind_without_all() -> None:
    """``move White from middle to left`` parses; the same query after ``for d in`` should too."""
    (stmt,) = _body("for d in White in middle:\n  pass")
    assert isinstance(stmt, ast.For)
    assert stmt.iterable.kind == "query"
    assert [k.name for k in stmt.iterable.query.kinds] == ["White"]


# ------------------------------------------------------------------ declarations


def test_declarations() -> None:
    decls = _parse(
        'game "Roll" extends "base.rules"\n'
        "players 2 to 5 default 3\n"
        'section "Components"\n'
        'option fast = false "play short"\n'
        "attribute pips = 0\n"
        'face Six "six": pips 6, colour "red"\n'
        '3 Red dice "red die": Six, Blank\n'
        "10 Cow cards: points -2\n"
        'zone deck "the deck": ordered, hidden\n'
        "zone hand: per player, owner\n"
        'counter score per player = 1 + 2 "points"\n'
        "counter round = 0\n"
        "define total(p) = score of p * 2\n"
    )
    game, players, section, option, attribute, face, die, card, deck, hand, score, rnd, define = decls
    assert (game.title, game.extends) == ("Roll", "base.rules")
    assert game.extends_span is not None and game.extends_span.col == 21
    assert (players.low, players.high, players.default) == (2, 5, 3)
    assert section.title == "Components"
    assert (option.name, option.value, option.doc) == ("fast", False, "play short")
    assert (attribute.name, attribute.default) == ("pips", 0)
    assert (face.name, face.display) == ("Six", "six")
    assert [(a.name, a.value) for a in face.attrs] == [("pips", 6), ("colour", "red")]
    assert (die.count, die.name, die.cls, die.display) == (3, "Red", "die", "red die")
    assert [f.name for f in die.faces] == ["Six", "Blank"] and die.attrs == ()
    assert (card.count, card.cls, [(a.name, a.value) for a in card.attrs]) == (10, "card", [("points", -2)])
    assert (deck.display, [f.name for f in deck.flags]) == ("the deck", ["ordered", "hidden"])
    assert [f.name for f in hand.flags] == ["per player", "owner"]
    assert score.per_player and score.doc == "points" and isinstance(score.init, ast.Binary)
    assert not rnd.per_player and rnd.init == ast.Lit(0, rnd.init.span)
    assert (define.name, define.params) == ("total", ("p",))
    assert isinstance(define.expr, ast.Binary) and define.expr.op == "*"
    assert isinstance(define.expr.left, ast.Of) and define.expr.left.name == "score"


def test_rule_with_params_title_and_override() -> None:
    (rule,) = _parse('override rule pay(p, n) "Pay up":\n  pass\n')
    assert isinstance(rule, ast.BlockDecl)
    assert (rule.kind, rule.name, rule.params, rule.title, rule.override) == ("rule", "pay", ("p", "n"), "Pay up", True)
    assert rule.body == (ast.Simple("pass", rule.body[0].span),)


def test_spans_are_one_based_and_cover_the_construct() -> None:
    (rule,) = _parse("rule r:\n  move all White from box to middle\n")
    move = rule.body[0]
    assert (move.span.file, move.span.line, move.span.col) == ("x.rules", 2, 3)
    assert (move.query.kinds[0].span.line, move.query.kinds[0].span.col) == (2, 12)
    assert (move.dest.span.col, move.dest.span.end_col) == (30, 36)


# ------------------------------------------------------------------ queries


def test_query_all_with_kinds_zones_and_where() -> None:
    (move,) = _body('move all Yellow, Orange from held of current, middle where aside == "right" to right at top')
    assert isinstance(move, ast.Move)
    q = move.query
    assert (q.quantity, q.count, q.exclude) == ("all", None, False)
    assert [k.name for k in q.kinds] == ["Yellow", "Orange"]
    assert [z.name for z in q.zones] == ["held", "middle"]
    assert isinstance(q.zones[0].owner, ast.Current) and q.zones[1].owner is None
    assert isinstance(q.where, ast.Binary) and q.where.op == "=="
    assert q.where.left == ast.Name("aside", q.where.left.span)
    assert q.where.right == ast.Lit("right", q.where.right.span)
    assert move.dest.name == "right" and move.place == "top"


def test_query_except() -> None:
    (move,) = _body("move all except White from box to bag")
    assert move.query.exclude is True
    assert [k.name for k in move.query.kinds] == ["White"]
    assert move.query.quantity == "all"


@pytest.mark.parametrize(
    ("text", "quantity", "count"),
    [
        ("move 1 random from bag to coop", "random", 1),
        ("move random from bag to coop", "random", 1),
        ("move 3 random Cow from bag to coop", "random", 3),
        ("move 2 Cow from bag to coop", "count", 2),
        ("move Cow from bag to coop", "default", None),
        ("move from bag to coop", "default", None),
    ],
)
def test_query_quantities(text: str, quantity: str, count: int | None) -> None:
    (move,) = _body(text)
    assert (move.query.quantity, move.query.count) == (quantity, count)


def test_aggregates() -> None:
    expr = _expr("sum(points of all in right, middle) + count(all Egg in coop) * 2")
    assert isinstance(expr, ast.Binary) and expr.op == "+"
    left, right = expr.left, expr.right
    assert isinstance(left, ast.Aggregate) and left.func == "sum" and left.attr.name == "points"
    assert [z.name for z in left.query.zones] == ["right", "middle"]
    assert isinstance(right, ast.Binary) and right.op == "*"
    assert right.left.func == "count" and [k.name for k in right.left.query.kinds] == ["Egg"]
    anyq = _expr("any(Yellow in coop)")
    assert isinstance(anyq, ast.Aggregate) and anyq.func == "any" and anyq.query.quantity == "default"


# ------------------------------------------------------------------ expressions


def test_precedence() -> None:
    e = _expr("not a or b and c < 1 + 2 * -d")
    assert e.op == "or"
    assert isinstance(e.left, ast.Unary) and e.left.op == "not"
    assert e.right.op == "and"
    cmp = e.right.right
    assert cmp.op == "<" and cmp.right.op == "+" and cmp.right.right.op == "*"
    assert isinstance(cmp.right.right.right, ast.Unary) and cmp.right.right.right.op == "-"


def test_left_associative_arithmetic() -> None:
    e = _expr("10 - 3 - 2")
    assert e.op == "-" and e.left.op == "-" and e.right == ast.Lit(2, e.right.span)


def test_player_expressions_and_calls() -> None:
    e = _expr("score of player after next player")
    assert isinstance(e, ast.Of) and isinstance(e.target, ast.PlayerAfter)
    assert isinstance(e.target.target, ast.PlayerAfter) and e.target.target.target is None
    call = _expr("max(1, min(2, 3))")
    assert isinstance(call, ast.Call) and call.name == "max" and isinstance(call.args[1], ast.Call)


# ------------------------------------------------------------------ statements


def test_choose_with_for_and_if() -> None:
    (choose,) = _body(
        "choose current:\n"
        '  "hatch {k} from the Coop" for k in kinds(all in coop):\n'
        "    move 1 k from coop to middle\n"
        '  "draw from the bag" if any(all in bag):\n'
        "    move 1 random from bag to middle\n"
        '  "stop":\n'
        "    pass"
    )
    assert isinstance(choose, ast.Choose) and isinstance(choose.player, ast.Current)
    first, second, third = choose.options
    assert [(name, it.kind) for name, it in first.bindings] == [("k", "kinds")] and first.cond is None
    assert first.label.parts[0] == "hatch " and first.label.parts[2] == " from the Coop"
    assert first.label.parts[1] == ast.Name("k", first.label.parts[1].span)
    assert isinstance(first.body[0], ast.Move)
    assert second.bindings == ()
    assert isinstance(second.cond, ast.Aggregate) and second.cond.func == "any"
    assert third.label.parts == ("stop",) and third.cond is None


def test_repeat_while_for() -> None:
    repeat, while_, for_players, for_range, for_others = _body(
        "repeat sum(eggs of all in middle) times:\n  hatch_one\n"
        "while count(all in coop) < 5 and any(all in bag):\n  move 1 random from bag to coop\n"
        "for p in players:\n  score of p += 1\n"
        "for i in 1 to players:\n  pass\n"
        "for p in other players:\n  pay(p, 2)"
    )
    assert isinstance(repeat, ast.Repeat) and repeat.count.func == "sum"
    assert repeat.body == (ast.CallRule("hatch_one", (), repeat.body[0].span),)
    assert isinstance(while_, ast.While) and while_.cond.op == "and"
    assert isinstance(for_players, ast.For) and (for_players.var, for_players.iterable.kind) == ("p", "players")
    assign = for_players.body[0]
    assert isinstance(assign, ast.Assign) and (assign.op, assign.name) == ("+=", "score")
    assert assign.owner == ast.Name("p", assign.owner.span)
    assert for_range.iterable.kind == "range" and for_range.iterable.low == ast.Lit(1, for_range.iterable.low.span)
    assert for_range.iterable.high == ast.Name("players", for_range.iterable.high.span)
    assert for_others.iterable.kind == "others"
    call = for_others.body[0]
    assert isinstance(call, ast.CallRule) and len(call.args) == 2


def test_if_elif_else() -> None:
    (stmt,) = _body("if a:\n  pass\nelif b:\n  end turn\nelif c:\n  another turn\nelse:\n  end game")
    assert isinstance(stmt, ast.If)
    assert [c.name for c, _ in stmt.branches] == ["a", "b", "c"]
    assert [body[0].what for _, body in stmt.branches] == ["pass", "end turn", "another turn"]
    assert stmt.orelse[0].what == "end game"


def test_simple_statements() -> None:
    stmts = _body("roll all in middle\nshuffle deck\nset round to 3\nscore of current -= 1\n"
                  "let n = 2\npick first player at random\nmove 1 from deck to discard at bottom")
    roll, shuffle, set_, sub, let, pick, move = stmts
    assert isinstance(roll, ast.Roll) and roll.query.quantity == "all"
    assert isinstance(shuffle, ast.Shuffle) and shuffle.zone.name == "deck"
    assert isinstance(set_, ast.Assign) and (set_.op, set_.name, set_.owner) == ("=", "round", None)
    assert (sub.op, sub.name) == ("-=", "score") and isinstance(sub.owner, ast.Current)
    assert isinstance(let, ast.Let) and let.name == "n"
    assert pick.what == "pick first player at random"
    assert move.place == "bottom" and move.query.count == 1


def test_when_trigger() -> None:
    (trigger,) = _parse('when score of current >= 25 "25 points":\n  end game\n')
    assert isinstance(trigger, ast.TriggerDecl)
    assert trigger.title == "25 points"
    assert trigger.cond.op == ">=" and isinstance(trigger.cond.left, ast.Of)
    assert trigger.body[0].what == "end game"


def test_rank() -> None:
    (rank,) = _parse("rank p by highest score of p, then lowest count(all in held of p)\n")
    assert isinstance(rank, ast.RankDecl) and rank.var == "p"
    (d1, k1), (d2, k2) = rank.keys
    assert (d1, d2) == ("highest", "lowest")
    assert isinstance(k1, ast.Of) and k1.name == "score"
    assert isinstance(k2, ast.Aggregate) and k2.func == "count"


def test_string_templates() -> None:
    (say,) = _body('say "{current} busts with {foxes_showing + 1} Foxes, \\"ouch\\""')
    assert isinstance(say, ast.Say)
    parts = say.text.parts
    assert isinstance(parts[0], ast.Current)
    assert parts[1] == " busts with "
    assert isinstance(parts[2], ast.Binary) and parts[2].op == "+"
    assert parts[2].left.name == "foxes_showing"
    assert parts[3] == ' Foxes, "ouch"'
    # expressions inside a string carry the span of the string
    assert parts[2].span == say.text.span


def test_plain_string_has_one_part() -> None:
    (say,) = _body('say "no holes here"')
    assert say.text.parts == ("no holes here",)


def test_comments_blank_lines_and_continuations() -> None:
    decls = _parse('# a comment\n\ngame "x"   # trailing\n\n\nturn:\n  # inside\n  let a = 1 + \\\n    2\n\n  pass\n')
    turn = decls[1]
    assert [type(s) for s in turn.body] == [ast.Let, ast.Simple]
    assert turn.body[0].value.op == "+"


def test_crlf_line_endings() -> None:
    decls = _parse('game "x"\r\nturn:\r\n  pass\r\n')
    assert decls[1].body[0].what == "pass"


def test_file_without_final_newline() -> None:
    decls = _parse('game "x"\nturn:\n  pass')
    assert decls[1].body[0].what == "pass"


@pytest.mark.parametrize(
    "text",
    ["turn\n  pass\n", "game x\n", "turn:\npass\n", "rule r:\n  move all to\n", 'say "x"\n', "players 2 to\n"],
)
def test_syntax_errors_are_rulelang_errors(text: str) -> None:
    with pytest.raises(RulelangError) as info:
        _parse(text)
    assert info.value.span is not None and info.value.span.file == "x.rules"
    assert info.value.span.line >= 1 and info.value.span.col >= 1


# ------------------------------------------------------------------ the language for new games (issue 10)


def test_new_declarations() -> None:
    decls = _parse(
        'counter chips per player = 10 "chips": owner\n'
        "counter leader = nobody\n"
        '1 Card cards for n in 3 to 5 "Card {n}": value n, face_up true\n'
        "cards table:\n"
        "  count name display points\n"
        '  2 Cow "a cow" -1\n'
        "when x > 0 after each step \"late\":\n  pass\n"
    )
    chips, leader, c3, c4, c5, cow, when = decls
    assert chips.visibility is not None and chips.visibility.name == "owner"
    assert leader.visibility is None and isinstance(leader.init, ast.Nobody)
    assert [(c.name, c.display, c.group, [(a.name, a.value) for a in c.attrs]) for c in (c3, c5)] == [
        ("Card3", "Card 3", "Card", [("value", 3), ("face_up", True)]),
        ("Card5", "Card 5", "Card", [("value", 5), ("face_up", True)]),
    ]
    assert c4.name == "Card4" and c4.count == 1 and c4.cls == "card"
    assert (cow.count, cow.name, cow.display, cow.cls) == (2, "Cow", "a cow", "card")
    assert [(a.name, a.value) for a in cow.attrs] == [("points", -1)]
    assert when.after_step and when.title == "late"


def test_new_statements_and_expressions() -> None:
    reveal, let_before, let_text, let_face = _body(
        "reveal all in deck to all\n"
        "let q = player before current\n"
        'let t = "{q} wins"\n'
        "let f = face of d\n"
    )
    assert isinstance(reveal, ast.Reveal) and reveal.player is None
    assert isinstance(let_before.value, ast.PlayerAfter) and let_before.value.step == -1
    assert isinstance(let_text.value, ast.Template)
    assert isinstance(let_text.value.parts[0], ast.Name) and let_text.value.parts[1] == " wins"
    assert isinstance(let_face.value, ast.Of) and let_face.value.name == "face"
    plain = _expr('"no holes"')
    assert plain == ast.Lit("no holes", plain.span)
