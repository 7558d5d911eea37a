"""Rulebook ids (000..004) mean one thing everywhere: the table in ``engine/rulebooks.py``.

Every preset but msc follows exactly one rulebook; every three-digit id the code, the agents,
the README or the docs pages mention is a rulebook of the table; the rules page's presets table
(``docs/rules.md``), its definitions of the ids and the comments on ``PRESETS`` name the same
rulebook for each preset as the table does, and the README's short presets table agrees with it.
"""

import io
import re
import tokenize
from pathlib import Path

import pytest

from pyramid_env.engine import PRESETS, RULEBOOKS, Rulebook, rulebook_of

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
RULES_PAGE = ROOT / "docs" / "rules.md"  # the rulebooks in our words, and the presets table
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
RULES = ROOT / "pyramid_env" / "engine" / "rules.py"
SOURCES = sorted([*(ROOT / "pyramid_env").rglob("*.py"), *(ROOT / "agents").rglob("*.py")])

# A rulebook id is three digits 00x standing alone: not part of a number such as "1,000",
# "100,000", "0.004" or "2000" (seeds, counts and rates are written with those).
ID = re.compile(r"(?<!\w)(?<!\d[.,])00\d(?!\w|[.,]\d)")
NO_RULEBOOK = "msc"  # the one preset known from an oracle, not a rulebook


def ids_in(text: str) -> list[str]:
    return ID.findall(text)


def prose_of(source: str) -> str:
    """A module's comments and string literals (docstrings included), one per line."""
    kinds = {tokenize.COMMENT, tokenize.STRING}
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return "\n".join(t.string for t in tokens if t.type in kinds)


def presets_rows(page: str, second: str = "rulebook") -> dict[str, list[str]]:
    """The presets table whose second column is ``second``: preset -> its cells after the name."""
    lines = page.splitlines()
    header = re.compile(rf"\|\s*preset\s*\|\s*{second}\s*\|")
    start = next(i for i, line in enumerate(lines) if header.match(line))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        preset = re.fullmatch(r"`([\w-]+)`(?: \(default\))?", cells[0])
        assert preset, f"presets table: no preset name in {line!r}"
        assert preset[1] not in rows, f"presets table: {preset[1]} twice"
        rows[preset[1]] = cells[1:]
    return rows


def presets_table(page: str) -> dict[str, str]:
    """The rules page's presets table: preset -> rulebook (``"000"``, ``"000's ... variant"``)."""
    return {preset: cells[0] for preset, cells in presets_rows(page).items()}


def table_disagreements(page: str) -> list[str]:
    """Where the rules page's presets table and RULEBOOKS disagree, one line each (none: agree)."""
    rows = presets_table(page)
    problems = []
    if set(rows) != set(PRESETS):
        problems.append(f"presets in the table {sorted(rows)} != PRESETS {sorted(PRESETS)}")
    for preset, cell in rows.items():
        book = rulebook_of(preset)
        if book is None:
            want = NO_RULEBOOK if preset == NO_RULEBOOK else "(no rulebook in RULEBOOKS)"
        elif preset == book.presets[0]:
            want = book.id
        else:
            want = f"{book.id}'s <word> variant"
        said = re.fullmatch(r"(00\d|msc)('s [\w-]+ variant)?", cell)
        ok = said is not None and (
            cell == want
            if book is None or preset == book.presets[0]
            else said[1] == book.id and said[2] is not None
        )
        if not ok:
            problems.append(f"the table says `{preset}` | {cell}; RULEBOOKS says {want}")
    return problems


# -- the table itself --


def test_table_is_keyed_by_id_in_order():
    assert list(RULEBOOKS) == ["000", "001", "002", "003", "004"]
    for key, book in RULEBOOKS.items():
        assert isinstance(book, Rulebook) and book.id == key
        assert book.title and book.note and book.presets
        assert "\n" not in book.note, "a note is one line"


def test_every_preset_but_msc_follows_exactly_one_rulebook():
    for preset in PRESETS:
        books = [b.id for b in RULEBOOKS.values() if preset in b.presets]
        if preset == NO_RULEBOOK:
            assert books == [] and rulebook_of(preset) is None
        else:
            assert len(books) == 1, f"{preset} follows {books or 'no rulebook'}"
            assert rulebook_of(preset) is RULEBOOKS[books[0]]


def test_rulebooks_name_only_presets():
    named = [p for b in RULEBOOKS.values() for p in b.presets]
    assert len(named) == len(set(named))
    assert set(named) <= set(PRESETS), set(named) - set(PRESETS)
    assert rulebook_of("no such preset") is None


# -- every mention of an id --


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        (
            "000's dead-deal test (002, 003, 004). Rulebook 001.",
            ["000", "002", "003", "004", "001"],
        ),
        ("shared/seeds/000..004, 000-004", ["000", "004", "000", "004"]),
        ("1,000 deals, 100,000 layouts, 1,000,000 and up, 0.004 s, 0.001, 2000, 10.000", []),
        ("005's rule", ["005"]),
    ],
)
def test_id_pattern(text, ids):
    assert ids_in(text) == ids


def test_ids_in_code_comments_and_docstrings_are_rulebooks():
    seen = set()
    for path in SOURCES:
        for found in ids_in(prose_of(path.read_text())):
            seen.add(found)
            assert found in RULEBOOKS, f"{path.relative_to(ROOT)} mentions rulebook {found}"
    assert "000" in seen, "no id found at all: is the pattern broken?"


def test_ids_in_readme_and_docs_are_rulebooks():
    for page in PAGES:
        unknown = sorted(set(ids_in(page.read_text())) - set(RULEBOOKS))
        assert not unknown, f"{page.name} mentions rulebooks {unknown}, not in RULEBOOKS"


def test_the_rules_page_defines_every_rulebook_with_its_title():
    flat = " ".join(RULES_PAGE.read_text().split())
    for book in RULEBOOKS.values():
        assert f"**{book.id}** {book.title}" in flat, (
            f"docs/rules.md does not define {book.id} as {book.title!r}"
        )


def test_the_rules_page_gives_each_rulebook_in_our_words():
    """docs/rules.md lists each rulebook with its presets and its note, as RULEBOOKS has them."""
    flat = " ".join(RULES_PAGE.read_text().split())
    for book in RULEBOOKS.values():
        presets = ", ".join(f"`{p}`" for p in book.presets)
        entry = f"- **{book.id}**, {book.title} ({presets}): {book.note}."
        assert entry in flat, f"docs/rules.md: no entry {entry!r}"


# -- the presets tables and the PRESETS comments --


def test_rules_page_presets_table_agrees_with_rulebooks():
    assert table_disagreements(RULES_PAGE.read_text()) == []


def test_readme_presets_agree_with_the_rules_page():
    """The README's short table (no rulebook column): same presets, passes and covering pair."""
    short = presets_rows(README.read_text(), second="passes")
    full = presets_rows(RULES_PAGE.read_text())
    assert set(short) == set(PRESETS)
    for preset, (passes, covering, _stock) in short.items():
        assert full[preset][1].startswith(passes), (preset, passes, full[preset][1])
        assert full[preset][2] == covering, (preset, covering, full[preset][2])


@pytest.mark.parametrize(
    ("row", "wrong"),
    [
        ("| `two-pass` | 003 |", "| `two-pass` | 004 |"),
        ("| `one-pass` | 000's strict variant |", "| `one-pass` | 000 |"),
        ("| `one-pass` | 000's strict variant |", "| `one-pass` | 001's strict variant |"),
        ("| `relaxed` (default) | 000 |", "| `relaxed` (default) | 000's strict variant |"),
        ("| `msc` | msc |", "| `msc` | 004 |"),
    ],
)
def test_a_wrong_row_is_caught(row, wrong):
    text = RULES_PAGE.read_text()
    assert row in text
    problems = table_disagreements(text.replace(row, wrong))
    assert len(problems) == 1, problems


def test_presets_comments_name_their_rulebook():
    """In rules.py, the comment just above each preset names its rulebook (msc's none)."""
    source = RULES.read_text()
    block = source[source.index("PRESETS: dict") : source.index("DEFAULT_PRESET =")]
    comment = None
    checked = []
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            comment = stripped
        name = re.search(r"\bname=\"([\w-]+)\"", line)
        if name:
            book = rulebook_of(name[1])
            said = ids_in(comment or "")
            want = [] if book is None else [book.id]
            assert said[:1] == want, f"PRESETS comment for {name[1]}: {comment!r}; want {want}"
            checked.append(name[1])
    assert sorted(checked) == sorted(PRESETS)
