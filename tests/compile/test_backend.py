"""The generated back end: coverage counting, error locations, the emitted source, standings."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

import rulelang
from rulelang.agents.base import FirstAgent, RandomAgent
from rulelang.check import model as m
from rulelang.check.checker import check_sources
from rulelang.cli import main
from rulelang.compile import codegen
from rulelang.compile.exprs import expression_function
from rulelang.compile.labels import Pending, resolve
from rulelang.compile.program import ASK, CHOOSE, DRAW, SHUFFLE, ChooseSpec
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.syntax.loader import load_sources

ROOT = Path(__file__).resolve().parents[2]

TINY = """\
game "Counting"
players 2 to 2 default 2

counter score per player = 0 "points"

setup:
  pass

turn:
  choose:
    "add one":
      score of current += 1
    "add two" if score of current > 3:
      score of current += 2
  if score of current >= 5:
    end game
  elif score of current == 2:
    say "two"
  else:
    pass

when score of current >= 4 "almost there":
  say "almost"

rank p by highest score of p
"""


def _tiny(tmp_path: Path, text: str = TINY) -> Path:
    path = tmp_path / "tiny.rules"
    path.write_text(text, encoding="utf-8")
    return path


def _counts(engine: Engine) -> dict[tuple[str, str], int]:
    assert engine.coverage is not None
    return {(c.kind, c.name): n for c, n in zip(engine.program.constructs, engine.coverage)}


def test_coverage_counts_every_construct_of_a_small_game(tmp_path: Path) -> None:
    engine = Engine(rulelang.load_game(_tiny(tmp_path)).program, coverage=True)
    st = engine.new_state(2, narrate=True)
    log: list = list(st.log or [])
    play(engine, st, [FirstAgent(), FirstAgent()], seed=1, on_event=lambda _e, told: log.extend(told), narrate=True)
    # FirstAgent always adds one: P1 reaches 5 on turn 9; P1 (turn 3) and P2 (turn 4) reach 2.
    assert st.turn == 9
    counts = _counts(engine)
    assert counts[("rule", "setup")] == 1
    assert counts[("rule", "turn")] == 9
    assert counts[("option", "add one")] == 9
    assert counts[("option", "add two")] == 0
    assert counts[("branch", "if")] == 1
    assert counts[("branch", "elif")] == 2
    assert counts[("branch", "else")] == 6
    fired = sum(1 for event in log if event["type"] == "trigger")
    assert fired == 2  # P1 reaches 4 (turn 7), P2 reaches 4 (turn 8; still true when P1 plays turn 9)
    assert counts[("trigger", "almost there")] == fired
    assert [c.kind for c in engine.program.constructs].count("trigger") == 1
    assert all(c.span is not None and c.span.file.endswith("tiny.rules") for c in engine.program.constructs)


def test_coverage_accumulates_over_every_state_of_an_engine() -> None:
    base = rulelang.load_game(ROOT / "games" / "chicken.rules")
    engine = Engine(base.program, coverage=True)
    turns = 0
    for seed in range(1, 21):
        st = engine.new_state(4)
        play(engine, st, [RandomAgent(seed, s) for s in range(4)], seed)
        turns += st.turn
        assert st.over
    counts = _counts(engine)
    assert counts[("trigger", "a player ends their turn with 25 or more points")] == 20  # it ends every game
    assert counts[("option", "Go For It!")] + counts[("option", "Chicken Out!")] == turns
    hatched = counts[("rule", "hatch_one")]
    assert hatched > 0
    assert counts[("branch", "if")] + counts[("branch", "elif")] + counts[("branch", "else")] >= hatched
    # The same game without coverage: no counting code at all, and the same games.
    assert base.coverage is None
    assert "COV[" not in base.program.generated.source
    assert "COV[" in base.program.generated_coverage.source
    plain = 0
    for seed in range(1, 21):
        st = base.new_state(4)
        play(base, st, [RandomAgent(seed, s) for s in range(4)], seed)
        plain += st.turn
    assert plain == turns


def test_an_error_inside_generated_code_names_the_rules_line(tmp_path: Path) -> None:
    path = _tiny(tmp_path, TINY.replace("""turn:
  choose:""", """turn:
  let p = nobody
  if score of p > 0:
    end game
  choose:"""))
    engine = rulelang.load_game(path)
    with pytest.raises(RulelangError) as info:
        engine.new_state(2)
    assert info.value.message == "nobody has a 'score'"
    assert info.value.span is not None
    assert (Path(info.value.span.file).name, info.value.span.line) == ("tiny.rules", 11)


def test_line_table_maps_a_python_error_in_a_block_to_its_rule() -> None:
    engine = rulelang.load_game(ROOT / "games" / "chicken.rules")
    model = engine.model
    block = engine.code[model.setup_rule][0][1]
    st = engine.new_state(4)
    st.zones = {}  # a broken state: the first move of setup cannot find its zones
    with pytest.raises(KeyError) as info:
        block(st, [None] * 8, [model.setup_rule, 0, []], 100)
    span = engine.run.lines.span_of(info.value.__traceback__)
    call = model.rules[model.setup_rule].body[0]  # arrange_coop, inlined: its move comes first
    first_move = model.rules[call.rule].body[0]
    assert span == first_move.span
    assert (ROOT / "games" / "chicken.rules").read_text().splitlines()[span.line - 1].strip().startswith("move all")


def test_emit_python_shows_the_source_and_user_text_only_as_constants() -> None:
    result = CliRunner().invoke(main, ["compile", str(ROOT / "games" / "chicken.rules"), "--emit-python"])
    assert result.exit_code == 0, result.output
    code_lines = [line for line in result.output.splitlines() if not line.lstrip().startswith("#")]
    assert any(line.startswith("def r") for line in code_lines)
    assert compile("\n".join(code_lines), "<emitted>", "exec") is not None
    for text in ("Go For It!", "Chicken Out!", "hatches a Yellow die", "score", "coop"):
        assert not any(text in line for line in code_lines), text
    summary = CliRunner().invoke(main, ["compile", str(ROOT / "games" / "chicken.rules")])
    assert summary.exit_code == 0 and "lines of Python)" in summary.output


def test_emit_python_is_the_same_text_every_time() -> None:
    """Two compiles of one game print the same module (no object addresses in the constants listed)."""
    args = ["compile", str(ROOT / "games" / "chicken.rules"), "--emit-python"]
    first, second = CliRunner().invoke(main, args), CliRunner().invoke(main, args)
    assert first.exit_code == second.exit_code == 0
    assert first.output == second.output
    assert " at 0x" not in first.output


def test_compile_of_a_missing_file_is_a_clean_error() -> None:
    result = CliRunner().invoke(main, ["compile", "no-such-game.rules"])
    assert result.exit_code == 1
    assert "no such file" in result.output and "Traceback" not in result.output


@attrs.frozen
class Doubled:
    """An expression kind the generator does not know (stands for one a language change adds)."""

    operand: object
    type: str = m.INT


def test_an_unknown_node_kind_is_refused_at_compile_time(tmp_path: Path) -> None:
    """No closure compiler stands behind the generator: a node kind it does not translate (as a
    language change would add) stops the compile, named, instead of running a second meaning."""
    text = TINY.replace('      score of current += 1', '      score of current += 1\n      let x = 21')
    model = check_sources(load_sources(_tiny(tmp_path, text)), None)
    turn = model.rules[model.turn_rule]
    choose = turn.body[0]
    let = choose.options[0].body[1]
    weird = attrs.evolve(let, value=Doubled(let.value))
    options = (attrs.evolve(choose.options[0], body=(choose.options[0].body[0], weird)),) + choose.options[1:]
    turn.body = (attrs.evolve(choose, options=options),) + turn.body[1:]
    with pytest.raises(AssertionError, match="does not translate Doubled nodes"):
        codegen.compile_model(model)


@pytest.mark.parametrize("game", ["chicken", "barnyard", "hippe-kippen"])
def test_a_decision_reads_functions_of_the_generated_module(game: str) -> None:
    """An option's label, range and condition, the chooser, an ask's conditions and a draw's zones,
    filter, names and insertion are functions of the generated module (one translation with the
    blocks), not closures built beside it."""
    engine = rulelang.load_game(ROOT / "games" / f"{game}.rules")
    filename = engine.program.generated.code_object.co_filename
    fns: list = []
    for rule in engine.run.code:
        for ins in rule:
            if ins[0] == CHOOSE:
                spec = ins[1]
                fns.append(spec.player)
                for label, ranges, cond, _pc, public, _parser, _flag in spec.options:
                    fns += [label, *(values for _slot, values in ranges), cond, public]
                fns += [text for shown in spec.shown for _name, text in shown]
            elif ins[0] == ASK:
                fns += [cond for _label, cond in ins[1].options]
            elif ins[0] == DRAW:
                spec = ins[1]
                fns += [spec.source, spec.pred, spec.dest, spec.source_owner, spec.source_name, spec.dest_name,
                        ins[2]]
            elif ins[0] == SHUFFLE:
                fns.append(ins[1])
    fns = [fn for fn in fns if fn is not None]
    assert len(fns) >= 4
    for fn in fns:
        assert fn.__code__.co_filename == filename, fn


def test_resolve_puts_the_module_functions_in_place_of_their_names() -> None:
    def label(st: object, loc: object) -> str:
        return "x"

    spec = ChooseSpec(Pending("who"), [(Pending("label"), ((3, Pending("values")),), None, 4, None, None, False)], 9)
    entry = (CHOOSE, spec, None, (1, 2), None)
    ns = {"who": max, "label": label, "values": sorted}
    got = resolve(entry, ns)
    assert got[1] is spec and got[3] == (1, 2)
    assert spec.player is max
    assert spec.options == [(label, ((3, sorted),), None, 4, None, None, False)]
    with pytest.raises(KeyError):
        resolve(Pending("missing"), ns)


def test_standings_compute_each_pure_definition_once_per_arguments() -> None:
    engine = rulelang.load_game(ROOT / "games" / "rule-the-roost.rules")
    model = engine.model
    sheet = model.sheets[0]
    plains = [(label, expression_function(model, e)) for label, e in sheet.lines]  # no memo
    for seed in range(1, 16):
        st = engine.new_state(4)
        play(engine, st, [RandomAgent(seed, s) for s in range(4)], seed)
        result = engine.standings(st)
        by_player = {row["player"]: row for row in result["standings"]}
        for p in range(4):
            loc = [None] * max(1, sheet.nlocals)
            loc[0] = p
            want = {label: plain(st, loc) for label, plain in plains}
            assert by_player[f"P{p + 1}"]["sheets"][sheet.name] == want
    memos = {k: v for k, v in engine.program.generated.constants.items() if k.endswith("_memo")}
    assert memos, "the standings' pure definitions are memoised"
    # after the last standings: one entry per (player, barn) at most, however often each was used
    assert 0 < max(len(v) for v in memos.values()) <= 4 * 3


@pytest.mark.parametrize("game", ["chicken-eggspansion", "barnyard", "rule-the-roost"])
def test_generated_source_holds_no_text_of_the_rules_file(game: str) -> None:
    """Every string literal of the generated module is one of the compiler's own; every name is too."""
    import builtins
    import io
    import keyword
    import re
    import tokenize

    engine = rulelang.load_game(ROOT / "games" / f"{game}.rules")
    source = engine.program.generated.source
    strings = set()
    names = set()
    attributes = set()
    after_dot = False
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING:
            strings.add(tok.string)
        elif tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
            (attributes if after_dot else names).add(tok.string)
        after_dot = tok.type == tokenize.OP and tok.string == "."
    own = {"''", "'type'", "'say'", "'text'", "'chance'", "'step'", "'roll'", "'outcome'", "'component'", "'face'",
           "'places'", "'move'", "'components'", "'from'", "'to'", "'random'", "'draw'", "'turn'", "'player'",
           "' of '", "'yes'", "'no'", "', '"}
    assert strings <= own, strings - own
    defined = set(re.findall(r"^def (\w+)\(", source, re.M))
    fixed = {"st", "loc", "fr", "left", "out", "key", "memo", "v", "armed", "fired", "flags", "now", "p", "x",
             "Z", "C", "F", "COV", "each", "tries", "kp"}
    temps = re.compile(r"^_[a-z]+\d+$|^Z_\d+$")  # the compiler's temporaries: _d12, _mv40, ...; zone tables Z_3
    for name in names:
        assert (name in fixed or name in defined or name in engine.program.generated.constants
                or name in dir(builtins) or temps.match(name)), name
    state_and_methods = {"zones", "counters", "faces", "current", "players", "answers", "log", "stack", "step",
                         "turn", "chance_rng", "chance_events", "extra_turn", "next_player", "pause_at_turn",
                         "armed", "seen", "append", "clear", "sort", "pop", "reverse", "below", "weighted",
                         "get", "join", "__getitem__"}
    state_and_methods |= {"roll_into", "remove", "isdisjoint", "one_of"}  # rolls in one call, the top one moved, any()
    state_and_methods |= {"picking", "pending_cache", "choice_cache"}  # decisions taken in blocks (pause_pick)
    state_and_methods |= {"picks", "limit", "listed", "take", "record", "took", "ones", "blind"}  # the mode (picking)
    state_and_methods |= {"pick", "kind_drawn"}  # a random draw of any component of a zone: the r-th for pick(len) = r
    state_and_methods |= {"intersection"}  # a count: the size of the components sought met in a zone
    state_and_methods |= {"count"}  # how many players gave one answer: st.answers.count(X)
    state_and_methods |= {"ids"}  # a choice listed with its action ids for an adapter (runtime.Listed)
    state_and_methods |= {"copy"}  # a die's roll event copied from its constant (chance.CHANCE_COPIED)
    assert attributes <= state_and_methods, attributes - state_and_methods


# ------------------------------------------------------------------ the language's constructs, all generated

def _language_programs() -> list:
    from tests.language import test_constructs as tl

    return [pytest.param(tl.PLAYERS + tl.PLAYERS_TURN, id="players"),
            pytest.param(tl.DICE + tl.DICE_TURN, id="one-component"),
            pytest.param(tl.SECRET, id="reveal-to-all-secret-counters"),
            pytest.param(tl.FRACTIONS, id="fractions"),
            pytest.param(tl.TRAP.format(after=" after each step"), id="after-each-step")]


@pytest.mark.parametrize("body", _language_programs())
def test_every_construct_of_the_language_runs_as_generated_code(body: str, tmp_path: Path) -> None:
    from language_support import game

    engine = game(tmp_path, body)
    st = engine.new_state(engine.model.min_players, narrate=True)
    play(engine, st, [RandomAgent(3, s) for s in range(st.players)], 3, narrate=True)
    assert st.over


AFTER_STEP_ROLL = """
face One
face Six
1 Red die: One, Six
zone tray
counter moves = 0
setup:
  move all from box to tray
turn:
  moves += 1
  roll all in tray
  say "rolled"
  choose:
    "go":
      pass
when moves >= 2 after each step "two moves end the game":
  end game
rank p by highest moves
"""


def test_an_after_step_trigger_fires_before_a_roll_also_while_playing(tmp_path: Path) -> None:
    """Dice rolled inline while playing must not skip the after-step check the paused roll makes."""
    from language_support import game

    engine = game(tmp_path, AFTER_STEP_ROLL)
    played = engine.new_state(2, narrate=True)
    told: list = list(played.log or [])
    play(engine, played, [RandomAgent(1, s) for s in range(2)], 1, narrate=True,
         on_event=lambda _event, narration: told.extend(narration))
    paused = engine.new_state(2, narrate=True)
    while not paused.over:  # every roll pauses: no chance stream attached
        d = engine.pending(paused)
        engine.apply(paused, d.labels[0])
    rolled = [e for e in told if e["type"] == "say"]
    assert played.turn == paused.turn == 2
    assert len(rolled) == 1  # the second turn's roll never happens: the game ended first
    assert played.counters == paused.counters


@pytest.mark.parametrize("stmt", ["score of w += 1", "set score of w to 1"])
def test_changing_a_counter_of_nobody_is_an_error_at_the_statement(stmt: str, tmp_path: Path) -> None:
    from language_support import HEAD, game

    engine = game(tmp_path, f"""zone pool
counter score per player = 0 "points"
counter leader = nobody "the leader"
setup:
  pass
turn:
  let w = leader
  {stmt}
  end game
""")
    with pytest.raises(RulelangError, match="nobody has a 'score'") as err:
        engine.new_state(2)
    assert err.value.span is not None and (err.value.span.line, err.value.span.col) == (HEAD.count("\n") + 8, 3)


def test_line_table_takes_a_traceback_line_python_does_not_know() -> None:
    engine = rulelang.load_game(ROOT / "games" / "chicken.rules")
    lines = engine.run.lines
    assert lines.span_at(None) is None  # (a traceback entry may lack its line: no TypeError)
    assert lines.span_at(10**9) == lines.span_at(len(lines.spans))
