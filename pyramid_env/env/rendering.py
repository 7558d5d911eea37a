"""Pictures of the table, for ``render_mode="rgb_array"`` and ``"human"``.

Pillow draws them and pygame shows them in a window; both are in the ``render`` extra.

Kept out of the engine and of the step path: only ``render()`` imports it. The pyramid is drawn
as overlapping rows, exposed cards bright and covered cards dimmed; the stock face down with its
count (face up where the rules show its top), the waste fanned with its top card last, and the
drawn card apart. Unseen stock cards are never drawn face up unless the env observes the stock in
full, so a video shows what the agent sees.
"""

from __future__ import annotations

import numpy as np

try:
    from PIL import Image, ImageDraw
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'render_mode="rgb_array" needs Pillow: pip install "pyramid-env[render]"'
    ) from err

from pyramid_env.engine.cards import CARD_NAMES
from pyramid_env.engine.layout import ROW_COL, SLOTS
from pyramid_env.engine.state import State

CARD_W, CARD_H = 46, 64
GAP_X, ROW_Y = 6, 34
MARGIN = 12
WIDTH = MARGIN * 2 + 7 * CARD_W + 6 * GAP_X + 3 * CARD_W
HEIGHT = MARGIN * 2 + 6 * ROW_Y + CARD_H + 24
FELT, FACE, DIM, BACK = (18, 94, 56), (250, 250, 245), (150, 150, 145), (40, 70, 150)
RED, BLACK = (190, 20, 30), (20, 20, 20)


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: int | None, dim: bool = False) -> None:
    """One card at (x, y): a face (``card``), or a back (``None``)."""
    if card is None:
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 5, fill=BACK, outline=FACE)
        return
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), 5, fill=DIM if dim else FACE, outline=BLACK
    )
    name = CARD_NAMES[card]
    colour = RED if name[1] in "dh" else BLACK
    draw.text((x + 5, y + 3), name, fill=colour)


def render_rgb(s: State, reveal: bool) -> np.ndarray:
    """The table as an ``(H, W, 3)`` uint8 array; ``reveal`` also lists the stock order."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(img)
    exposed = {i for i in range(SLOTS) if s.is_exposed(i)}
    for i, (r, c) in enumerate(ROW_COL):
        if s.pyr >> i & 1:
            x = MARGIN + (6 - r) * (CARD_W + GAP_X) // 2 + c * (CARD_W + GAP_X)
            _card(draw, x, MARGIN + r * ROW_Y, s.deal.cards[i], dim=i not in exposed)
    right = MARGIN + 7 * (CARD_W + GAP_X) + CARD_W // 2
    stock = s.stock_cards
    if stock:  # the next card shows only where the rules lay it face up
        _, d = s._tops()
        top = s.deal.cards[SLOTS + d] if d >= s.ptr else None
        _card(draw, right, MARGIN, top)
    draw.text((right, MARGIN + CARD_H + 4), f"stock {len(stock)}", fill=FACE)
    waste = s.waste_cards[-4:]
    for k, card in enumerate(waste):
        _card(draw, right + k * 12, MARGIN + CARD_H + 24, card)
    draw.text((right, MARGIN + 2 * CARD_H + 28), f"waste {s.waste_size}", fill=FACE)
    if s.drawn_card is not None:
        _card(draw, right, MARGIN + 2 * CARD_H + 48, s.drawn_card)
    if reveal:
        draw.text(
            (MARGIN, HEIGHT - 18), "stock: " + " ".join(CARD_NAMES[c] for c in stock), fill=FACE
        )
    return np.asarray(img, dtype=np.uint8).copy()


class Window:
    """A pygame window showing the pictures of ``render_rgb`` (``render_mode="human"``)."""

    def __init__(self, fps: int) -> None:
        """Open the window; ``fps`` caps how fast frames are shown."""
        import pygame  # imported here: only human rendering needs it

        self.pygame = pygame
        pygame.init()
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
        """Close the window."""
        self.pygame.display.quit()
        self.pygame.quit()
