"""Keys sent as a fast typist (or a paste) sends them: straight to the app, none waiting for the
last to be handled. Pilot's press waits for the app to be idle after each key, which hides the
races between a screen being pushed or popped and the keys that come next."""

from __future__ import annotations

import random

from textual import events
from textual.keys import _character_to_key

# Every key the app, its screens and its modals answer, but the ones that quit.
APP_KEYS = ("n p h s r l t w z x g y 1 2 3 4 5 6 7 8 9 question_mark tab shift+tab escape enter "
            "right left up down pageup pagedown home end ctrl+p").split()
# What a learner types into the palette (a word of it is a key of the app when the palette is
# not up yet).
PALETTE_TEXT = ("solution", "step 3", "hint", "timeline", "reset", "풀이", "단계", "help")


def send_now(app, keys) -> None:
    """Queues the keys in the app's driver at once, as a terminal delivers a burst."""
    for key in keys:
        char = key if len(key) == 1 else {"question_mark": "?", "space": " "}.get(key)
        name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        event = events.Key(name, char)
        event.set_sender(app)
        app._driver.send_message(event)


def storm(seed: int, count: int) -> list[str]:
    """`count` keys, seeded: mostly the app's keys, now and then a word typed after ctrl+p."""
    rng = random.Random(seed)
    keys: list[str] = []
    while len(keys) < count:
        if rng.random() < 0.12:
            keys += ["ctrl+p", *rng.choice(PALETTE_TEXT)]
        else:
            keys.append(rng.choice(APP_KEYS))
    return keys


def quits_counted(app) -> list[str]:
    """The app's quit, counted instead of done: a storm's enter can land in the palette while it
    opens, on Textual's Quit, which ends the app as the learner asked. What is left that ends
    the app is a defect. Returns the screens quit was asked from."""
    asked: list[str] = []

    async def counted() -> None:
        asked.append(type(app.screen).__name__)

    app.action_quit = counted
    return asked
