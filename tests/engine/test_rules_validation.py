"""Rules: every knob is type-checked wherever rules are made, numpy values are normalised, a
preset's name means exactly that preset (changed presets say so in their name), and a rules dict
that names no preset gives every knob. The ``slow``-marked twins run the properties with many
more examples (``pytest -m slow``).
"""

import json
import re

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from pyramid_env.engine import (
    PRESETS,
    Game,
    PyramidError,
    Rules,
    RulesError,
    Scoring,
    get_rules,
)
from pyramid_env.engine.rules import KNOBS, SCORING_FIELDS, Goal, StockPlay, UndoMoves
from tests.conftest import refused
from tests.engine.input_strategies import FAST, GOOD_KNOBS, JUNK, SLOW, opening_board


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"covering_pair": "False"}, r"rule covering_pair='False' \(str\) must be True or False"),
        ({"covering_pair": 0}, r"covering_pair=0 \(int\) must be True or False"),
        ({"dead_deal_ends_game": None}, r"dead_deal_ends_game=None \(NoneType\)"),
        ({"passes": True}, r"rule passes=True \(bool\) must be an int in 1..255, or None"),
        ({"passes": 0}, r"rule passes=0 must be an int in 1..255, or None for unlimited passes"),
        ({"passes": 2.0}, r"passes=2\.0 \(float\)"),
        ({"passes": "3"}, r"passes='3' \(str\)"),
        ({"undo_limit": "5"}, r"rule undo_limit=.5. \(str\) must be an int in 0..1,000,000, or"),
        ({"undo_limit": -1}, r"undo_limit=-1 must be an int in 0..1,000,000"),
        ({"waste_start": 2}, r"rule waste_start=2 must be 0 or 1"),
        ({"waste_start": True}, r"waste_start=True \(bool\) must be the int 0 or 1"),
        ({"draw_count": 2}, r"rule draw_count=2 must be 1 or 3"),
        ({"stock_play": "waste top"}, r"stock_play='waste top' is not one of: waste-top, "),
        ({"goal": 1}, r"rule goal=1 \(int\) must be one of the strings: pyramid, all"),
        ({"undo_moves": Goal.ALL}, r"undo_moves=.*all.* is not one of: decrement, keep, count"),
        ({"scoring": 10}, r"rule scoring=10 \(int\) must be a Scoring or a dict of its fields"),
        ({"scoring": {"bonus": 1}}, r"unknown rule scoring field 'bonus'; known: pyramid_card"),
        ({"scoring": {"stock_card": 1.5}}, r"scoring\.stock_card=1\.5 \(float\) must be an int"),
        ({"scoring": {"win_bonus": "600"}}, r"scoring\.win_bonus='600' \(str\) must be a finite"),
        ({"scoring": {"win_bonus": float("nan")}}, r"scoring\.win_bonus=nan"),
        ({"name": ""}, r"rule name='' \(str\) must be a non-empty str"),
        ({"name": 5}, r"rule name=5 \(int\)"),
        ({"pases": 1}, r"unknown rule 'pases'; known: name, passes, covering_pair"),
    ],
)
def test_rule_knobs_of_the_wrong_type_or_value_are_refused_everywhere(knobs, message):
    refused(get_rules, "msc", **knobs, error=RulesError, match=message)
    refused(Game, 0, "msc", **knobs, error=RulesError, match=message)  # constructors check the same
    refused(Game.from_board, opening_board(), "relaxed", **knobs, error=RulesError, match=message)
    if "pases" not in knobs and "name" not in knobs:
        refused(Rules, name="mine", **knobs, error=RulesError, match=message)


def test_numpy_rule_values_are_accepted_and_normalised():
    r = get_rules(
        "relaxed",
        passes=np.int64(2),
        undo_limit=np.uint8(7),
        draw_count=np.int32(3),
        waste_start=np.int16(1),
        covering_pair=np.bool_(False),
        scoring={"stock_card": np.int64(3), "win_bonus": np.float32(1.5)},
    )
    assert (r.passes, r.undo_limit, r.draw_count, r.waste_start) == (2, 7, 3, 1)
    for value in (r.passes, r.undo_limit, r.draw_count, r.waste_start, r.scoring.stock_card):
        assert type(value) is int
    assert r.covering_pair is False and type(r.scoring.win_bonus) is float
    assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r  # numpy would not serialise


def test_enum_strings_become_members():
    r = get_rules("relaxed", stock_play="face-up-stock", goal="all", undo_moves="count")
    assert r.stock_play is StockPlay.FACE_UP_STOCK and r.goal is Goal.ALL
    assert r.undo_moves is UndoMoves.COUNT


def test_a_save_naming_a_preset_is_that_preset():
    assert Rules.from_dict({"name": "msc"}) == PRESETS["msc"]  # was relaxed under msc's name
    assert Rules.from_dict({"name": "two-card", "passes": 1}) == get_rules("two-card", passes=1)
    assert Rules.from_dict({"name": "three-pass", "scoring": {"stock_card": 0}}).scoring == (
        Scoring(pyramid_card=10, win_bonus=600, win_per_move=2, win_per_second=0.5)
    )
    for r in [*PRESETS.values(), get_rules("msc", passes=1, goal="all"), Rules(name="mine")]:
        assert Rules.from_dict(r.to_dict()) == r
        assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r


def test_a_dict_not_naming_a_preset_must_give_every_knob():
    refused(
        Rules.from_dict,
        {"name": "mine", "passes": 1},
        error=RulesError,
        match=r"rules named 'mine' are not a preset .* every knob must be given; missing: "
        r"covering_pair, stock_play, waste_start, goal",
    )
    refused(Rules.from_dict, {}, error=RulesError, match="missing: name, passes")
    partial = Rules(name="mine").to_dict() | {"scoring": {"pyramid_card": 5}}
    refused(
        Rules.from_dict,
        partial,
        error=RulesError,
        match="scoring must give every field; missing: stock_card",
    )
    refused(Rules.from_dict, [], error=RulesError, match=r"rules=\[\] \(list\) must be a dict")
    refused(
        Rules.from_dict, {"name": "msc", "extra": 1}, error=RulesError, match="unknown rule 'extra'"
    )


def test_overrides_show_in_the_name():
    assert get_rules("msc", passes=1).name == "msc passes=1"
    assert get_rules("msc", passes=3).name == "msc"  # the preset's own value: unchanged
    assert get_rules("msc", passes=3) == PRESETS["msc"]
    assert get_rules("relaxed", goal="all", draw_count=3).name == "relaxed goal=all draw_count=3"
    assert get_rules("one-pass", passes=None).name == "one-pass passes=unlimited"
    assert get_rules("three-pass", scoring={"win_bonus": 500}).name == (
        "three-pass scoring.win_bonus=500.0"
    )
    r = get_rules("msc", passes=1).replace(passes=3)
    assert r == PRESETS["msc"] and r.name == "msc"
    assert get_rules(get_rules("msc", passes=1), goal="all").name == "msc passes=1 goal=all"
    assert get_rules("msc", passes=1, name="my msc").name == "my msc"  # a name of one's own
    assert get_rules("msc", passes=1).describe() == (
        "msc passes=1: 1 pass, no covering pair, face-up-stock, clear pyramid, draw 1"
    )


def test_a_preset_name_on_other_rules_is_refused():
    refused(
        Rules,
        name="msc",
        passes=1,
        error=RulesError,
        match=r"rule name='msc' does not match the knobs",
    )
    msc = PRESETS["msc"].to_dict()
    refused(
        Rules.from_dict,
        msc | {"name": "msc passes=2", "passes": 1},
        error=RulesError,
        match="they are 'msc passes=1'",
    )
    assert Rules(**(msc | {"name": "msc variant", "passes": 1})).name == "msc variant"


def test_solver_labels_are_looked_up_only_for_unchanged_presets(monkeypatch):
    evaluation = pytest.importorskip("pyramid_env.evaluation")
    asked = []
    monkeypatch.setattr(evaluation, "labels", lambda preset: asked.append(preset) or {})
    for rules in (get_rules("msc"), get_rules("msc", passes=3), get_rules("msc", passes=1)):
        evaluation.solver_labels(rules, [])
    assert asked == ["msc", "msc"]
    for r in (get_rules("msc", passes=1), get_rules("two-card", goal="all")):
        assert r.name not in PRESETS  # so evaluate() reports it under its own name


INTS = (int, np.integer)


def knob_ok(knob, v):
    """The knob's documented contract, written independently of rules.py."""
    is_int = isinstance(v, INTS) and not isinstance(v, bool)
    is_bool = isinstance(v, (bool, np.bool_))
    if knob == "name":
        return isinstance(v, str) and bool(v.strip())
    if knob == "passes":
        return v is None or (is_int and v >= 1)
    if knob == "undo_limit":
        return v is None or (is_int and v >= 0)
    if knob in ("covering_pair", "dead_deal_ends_game"):
        return is_bool
    if knob == "waste_start":
        return is_int and v in (0, 1)
    if knob == "draw_count":
        return is_int and v in (1, 3)
    if knob in ("stock_play", "goal", "undo_moves"):
        enum = {"stock_play": StockPlay, "goal": Goal, "undo_moves": UndoMoves}[knob]
        return isinstance(v, str) and v in {e.value for e in enum}
    if knob == "scoring":
        if isinstance(v, Scoring):
            return True
        if not isinstance(v, dict) or set(v) - set(SCORING_FIELDS):
            return False
        for f, x in v.items():
            if f in ("pyramid_card", "stock_card", "clear_bonus"):
                if not (isinstance(x, INTS) and not isinstance(x, bool)):
                    return False
            elif isinstance(x, bool) or not isinstance(x, (int, float, np.number)):
                return False
            elif not np.isfinite(x):
                return False
        return True
    return False


rule_values = st.one_of(
    st.sampled_from(JUNK),
    st.integers(-3, 10),
    st.dictionaries(st.sampled_from([*SCORING_FIELDS, "bogus"]), st.sampled_from(JUNK), max_size=3),
)
overrides = st.dictionaries(
    st.sampled_from([*KNOBS, "pases", "Goal"]),
    st.one_of(rule_values, st.sampled_from([v for vs in GOOD_KNOBS.values() for v in vs])),
    max_size=4,
) | st.fixed_dictionaries(
    {}, optional={k: st.sampled_from(vs) for k, vs in GOOD_KNOBS.items() if k != "name"}
)


def _check_rule_overrides(preset, knobs):
    known = all(k in KNOBS for k in knobs)
    try:
        r = get_rules(preset, **knobs)
    except PyramidError as err:
        assert str(err)
        event("rules refused")
        if known and all(knob_ok(k, v) for k, v in knobs.items()):
            # Only the name may refuse a valid-looking value: a preset name on other knobs.
            assert "name" in knobs and re.search("does not match the knobs", str(err)), err
        return
    assert known and all(knob_ok(k, v) for k, v in knobs.items()), (knobs, r)
    event("rules accepted")
    for k, v in knobs.items():  # nothing replaced by something else
        if k == "scoring":
            expect = vars_of(v) if isinstance(v, Scoring) else vars_of(PRESETS[preset].scoring) | v
            assert vars_of(r.scoring) == expect
        else:
            assert getattr(r, k) == v
    for k in ("passes", "undo_limit", "waste_start", "draw_count"):
        value = getattr(r, k)
        assert value is None or type(value) is int
    assert type(r.covering_pair) is bool and type(r.dead_deal_ends_game) is bool
    assert all(type(getattr(r.scoring, f)) in (int, float) for f in SCORING_FIELDS)
    # A preset's name means exactly that preset; changes are spelt out after it.
    if r.name in PRESETS:
        assert r == PRESETS[r.name]
    elif "name" not in knobs:
        assert r.name.startswith(preset + " ")
    data = json.loads(json.dumps(r.to_dict()))
    assert Rules.from_dict(data) == r
    assert r.describe().startswith(r.name + ": ")


def vars_of(scoring):
    if isinstance(scoring, dict):
        return scoring
    return {f: getattr(scoring, f) for f in SCORING_FIELDS}


@FAST
@given(st.sampled_from(list(PRESETS)), overrides)
def test_any_rule_overrides_give_checked_rules_or_a_rules_error(preset, knobs):
    _check_rule_overrides(preset, knobs)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(list(PRESETS)), overrides)
def test_any_rule_overrides_slow(preset, knobs):
    _check_rule_overrides(preset, knobs)
