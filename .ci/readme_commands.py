"""Print the README's two commands for a fresh machine (its one bash block), one per line.

CI runs them as written, so the README's promise ("one command sets up and runs the main job,
one sets up and runs the tests") is checked on every submission; tests/test_readme.py checks
this script finds exactly the two.
"""

import re
import sys
from pathlib import Path


def two_commands(readme: Path) -> list[str]:
    """The non-comment lines of the README's only ``bash`` block: main job, then tests."""
    blocks = re.findall(r"^```bash\n(.*?)^```", readme.read_text(), re.M | re.S)
    if len(blocks) != 1:
        raise SystemExit(f"{readme}: expected one bash block, found {len(blocks)}")
    commands = [x for x in blocks[0].splitlines() if x.strip() and not x.startswith("#")]
    if len(commands) != 2:
        raise SystemExit(f"{readme}: expected two commands in the bash block, found {commands}")
    return commands


if __name__ == "__main__":
    print("\n".join(two_commands(Path(sys.argv[1] if len(sys.argv) > 1 else "README.md"))))
