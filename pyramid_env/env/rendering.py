"""Pictures of the table, for ``render_mode="rgb_array"`` and ``"human"`` (the ``render`` extra).

Pillow draws them and pygame shows them in a window. Kept out of the engine and of the step
path: only ``render()`` imports this module, and only the ``"human"`` window imports pygame, so
``rgb_array`` runs, videos and ``check_env`` never start SDL. Covered cards are dimmed; the
line at the bottom is the stock as the observation shows it
(:func:`pyramid_env.engine.notation.stock_line`), so a picture never shows more than the agent
sees (docs/environment.md, "Rendering").
"""

from __future__ import annotations

import os
import sys
from functools import cache

import numpy as np

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'render_mode="rgb_array" needs Pillow: pip install "pyramid-env[render]"'
    ) from err

from pyramid_env.engine.cards import RANK, RANKS, SUITS
from pyramid_env.engine.layout import ROW_COL, SLOTS
from pyramid_env.engine.notation import stock_line
from pyramid_env.engine.state import State


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font at ``size`` pixels (the bitmap default is unreadable)."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError as err:  # pragma: no cover - Pillow < 10.1 has no size argument
        raise ImportError(
            'render_mode="rgb_array" needs Pillow >= 10.1: pip install "pyramid-env[render]"'
        ) from err


CARD_W, CARD_H = 64, 88
GAP_X, ROW_Y = 8, 44  # ROW_Y: the visible top of a covered card, where its rank and suit are
MARGIN = 16
PYRAMID_W = 7 * CARD_W + 6 * GAP_X
RIGHT = MARGIN + PYRAMID_W + 2 * GAP_X + CARD_W // 2  # the stock, waste and drawn card column
FAN = 16  # how far each waste card shows under the next
WIDTH = RIGHT + CARD_W + 3 * FAN + MARGIN
TEXT = 15  # the size of the labels and the stock line
HEIGHT = MARGIN + 6 * ROW_Y + CARD_H + 12 + TEXT + 8 + MARGIN
WIDTH, HEIGHT = WIDTH + WIDTH % 2, HEIGHT + HEIGHT % 2  # video encoders (yuv420p) need even sides
LABEL_H = TEXT + 6
FELT, FACE, DIM, BACK = (18, 94, 56), (250, 250, 245), (170, 170, 165), (40, 70, 150)
RED, BLACK, INK = (200, 20, 30), (20, 20, 20), (235, 235, 225)


def _suit(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, suit: str, fill: tuple[int, ...]
) -> None:
    """A suit sign of half-height ``r`` centred on (cx, cy): shapes, as the font has no glyphs."""
    if suit == "d":
        draw.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill)
        return
    h = r / 2
    if suit == "h":
        for dx in (-h, h):
            draw.ellipse((cx + dx - h, cy - r, cx + dx + h, cy), fill)
        draw.polygon([(cx - r, cy - h + 1), (cx + r, cy - h + 1), (cx, cy + r)], fill)
        return
    stem = [(cx, cy), (cx - 0.45 * r, cy + r), (cx + 0.45 * r, cy + r)]
    if suit == "s":
        for dx in (-h, h):
            draw.ellipse((cx + dx - h, cy - 0.2 * r, cx + dx + h, cy + 0.8 * r), fill)
        draw.polygon([(cx - r, cy + 0.3 * r), (cx + r, cy + 0.3 * r), (cx, cy - r)], fill)
    else:  # clubs: three leaves
        q = 0.45 * r
        for dx, dy in ((0.0, -0.5 * r), (-0.5 * r, 0.15 * r), (0.5 * r, 0.15 * r)):
            draw.ellipse((cx + dx - q, cy + dy - q, cx + dx + q, cy + dy + q), fill)
    draw.polygon(stem, fill)


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: int | None, dim: bool = False) -> None:
    """One card at (x, y): a face (``card``), or a back (``None``); ``dim``: a covered card."""
    box = (x, y, x + CARD_W, y + CARD_H)
    if card is None:
        draw.rounded_rectangle(box, 6, fill=BACK, outline=FACE, width=2)
        draw.rounded_rectangle((x + 6, y + 6, x + CARD_W - 6, y + CARD_H - 6), 4, outline=INK)
        return
    draw.rounded_rectangle(box, 6, fill=DIM if dim else FACE, outline=BLACK)
    suit = SUITS[card // 13]
    colour = RED if suit in "dh" else BLACK
    rank = "10" if RANK[card] == 10 else RANKS[card % 13]
    # Rank and suit in the top strip, the part of a card its coverers leave visible.
    draw.text((x + 5, y + 3), rank, fill=colour, font=_font(26))
    _suit(draw, x + CARD_W - 14, y + 17, 9, suit, colour)
    if not dim:  # a covered card's lower part lies under others: no pip to peek between them
        _suit(draw, x + CARD_W / 2, y + CARD_H - 24, 14, suit, colour)


def render_rgb(s: State, known: int) -> np.ndarray:
    """The table as an ``(H, W, 3)`` uint8 array.

    ``known``: the stock cycle positions the observation reveals (``PyramidEnv.known_stock()``,
    bit ``i``: deal card ``SLOTS + i``); the stock line at the bottom names only those. The pile
    itself stays face down but for a card the rules lay face up, as at a real table.
    """
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(img)
    font = _font(TEXT)
    for i, (r, c) in enumerate(ROW_COL):
        if s.pyr >> i & 1:
            x = MARGIN + (6 - r) * (CARD_W + GAP_X) // 2 + c * (CARD_W + GAP_X)
            _card(draw, x, MARGIN + r * ROW_Y, s.deal.cards[i], dim=not s.is_exposed(i))
    y = MARGIN
    if s.stock_size:  # the next card shows only where the rules lay it face up
        _, d = s.tops()
        top = s.deal.cards[SLOTS + d] if d >= s.ptr else None
        _card(draw, RIGHT, y, top)
    else:
        draw.rounded_rectangle((RIGHT, y, RIGHT + CARD_W, y + CARD_H), 6, outline=INK)
    passes = "" if s.rules.passes is None else f"/{s.rules.passes}"
    draw.text((RIGHT, y + CARD_H + 3), f"stock {s.stock_size}", fill=INK, font=font)
    draw.text((RIGHT, y + CARD_H + 3 + LABEL_H), f"pass {s.recycles + 1}{passes}", INK, font)
    y += CARD_H + 2 * LABEL_H + 4
    for k, card in enumerate(s.waste_cards[-4:]):
        _card(draw, RIGHT + k * FAN, y, card)
    draw.text((RIGHT, y + CARD_H + 3), f"waste {s.waste_size}", fill=INK, font=font)
    y += CARD_H + LABEL_H + 4
    if s.drawn_card is not None:
        _card(draw, RIGHT, y, s.drawn_card)
        draw.text((RIGHT, y + CARD_H + 3), "drawn", fill=INK, font=font)
    draw.text((MARGIN, HEIGHT - MARGIN - TEXT), stock_line(s, known), fill=INK, font=font)
    return np.asarray(img, dtype=np.uint8).copy()


class Window:
    """A pygame window showing the pictures of ``render_rgb`` (``render_mode="human"``)."""

    def __init__(self, fps: int) -> None:
        """Open the window; ``fps`` caps how fast frames are shown.

        Only the display is started: ``pygame.init()`` would also open the audio mixer, which
        prints ALSA errors on machines without a sound card. With no screen at all (no
        ``DISPLAY`` or ``WAYLAND_DISPLAY``, as under ``check_env`` on a server) SDL's ``dummy``
        driver is used unless ``SDL_VIDEODRIVER`` says otherwise: nothing could be shown anyway,
        and probing for a screen prints XDG errors.
        """
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on import
        if sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        ):
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame  # imported here: only human rendering needs it

        self.pygame = pygame
        pygame.display.init()
        self.screen = pygame.display.set_mode((WIDTH, HEIGHT))
        pygame.display.set_caption("Pyramid Solitaire")
        self.clock = pygame.time.Clock()
        self.fps = fps

    def show(self, frame: np.ndarray) -> None:
        """Draw one frame and keep the window responsive."""
        surface = self.pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self.screen.blit(surface, (0, 0))
        self.pygame.event.pump()
        self.pygame.display.flip()
        self.clock.tick(self.fps)

    def close(self) -> None:
        """Close the window (the display is the only part of pygame that was started)."""
        self.pygame.display.quit()
