"""``python -m pyramid_env.play``: ``pyramid-env play`` on its own."""

import sys

from pyramid_env.play.command import main_play

sys.exit(main_play())
