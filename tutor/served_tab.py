"""A served tab's tutor: `python -P -m tutor.served_tab [--failure-file FILE] <the tutor's options>`.

It runs the plain tutor (the same parser, command and error report as `lwstutor`), and adds what
a tab needs when the tutor fails before its first frame (an option that no longer holds, say a
--state-file that became a directory after the server checked it, or an error nobody expected):

- one line on stderr, in the learner's language, with the error's own detail and no traceback.
  textual-serve copies the tutor's stderr onto the server's output, so that is the server's line;
- the reason, in FILE, where the server reads it for the tab's page (/status);
- under textual-serve, the start and the end of a session on stdout, so textual-serve closes the
  tab's websocket at once (else the tab would wait on its splash) and reports no failed app.

A failure after the first frame is reported as `lwstutor` reports it (the tab has drawn the
tutor, and its page says the tutor ended), and an unexpected error there is one line too.
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys
from contextlib import redirect_stderr

from tutor.i18n import serving
from tutor.serve import FAILURE_FLAG
from tutor.i18n.bilingual import pick

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"  # what textual-serve puts in TEXTUAL_DRIVER
OUR_DRIVER = "tutor.serve.driver:ServedDriver"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    failure_file = ""
    if argv[:1] == [FAILURE_FLAG] and len(argv) > 1:
        failure_file, argv = argv[1], argv[2:]
    served = os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER
    if served:  # before textual is imported: it reads the variable once
        os.environ["TEXTUAL_DRIVER"] = OUR_DRIVER
        from tutor.serve import driver

        driver.failure_file = failure_file

    from tutor.cli import COMMANDS, build_parser, lang_before_parsing, report
    from tutor.commands.results import EXIT_USAGE, UsageError

    lang = lang_before_parsing(argv)
    args = None
    try:
        said = io.StringIO()
        try:
            with redirect_stderr(said):
                args = build_parser(lang=lang).parse_args(argv)
        except SystemExit as exc:  # argparse: `lwstutor: <what>` and a hint on the next line
            if exc.code in (0, None):
                sys.stderr.write(said.getvalue())
                return 0
            first = said.getvalue().strip().splitlines()[:1] or [str(exc.code)]
            return failed(lang, first[0].removeprefix("lwstutor: "), failure_file, served, EXIT_USAGE)
        from tutor.commands.setup import chosen_lang

        lang = chosen_lang(args)
        module, function = COMMANDS[args.command or ""].run.split(":")
        from importlib import import_module

        return getattr(import_module(module), function)(args)
    except KeyboardInterrupt:
        return 130
    except UsageError as exc:
        if app_started():
            report(args, exc)  # as `lwstutor` says it
            return EXIT_USAGE
        reason = exc.text(lang)
        if exc.fixes:
            reason += f" ({pick(serving.FIX, lang)}: {'; '.join(exc.fixes_in(lang))})"
        return failed(lang, reason, failure_file, served, EXIT_USAGE)
    except Exception as exc:  # noqa: BLE001 - a tab says why, the server says it in one line
        reason = pick(serving.UNEXPECTED, lang, error=f"{type(exc).__name__}: {exc}")
        if app_started():
            say_line(pick(serving.TUTOR_FAILED, lang, reason=one_line(reason)))
            return 1
        return failed(lang, reason, failure_file, served, 1)


def app_started() -> bool:
    """Whether the tutor's app drew (textual ran our driver): nothing imports it before then."""
    driver = sys.modules.get("tutor.serve.driver")
    return bool(driver and driver.started)


def one_line(text: str) -> str:
    return " ".join(line.strip() for line in str(text).splitlines() if line.strip())


def failed(lang: str, reason: str, failure_file: str, served: bool, code: int) -> int:
    """The tutor could not start: one line on stderr, the reason where the server reads it, and
    (under textual-serve) a session that ends at once, so the tab's websocket closes."""
    reason = one_line(reason)
    if failure_file:
        record(failure_file, reason)
    say_line(pick(serving.TUTOR_FAILED, lang, reason=reason))
    if served:
        end_session()
    return code


def say_line(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def record(path: str, reason: str) -> None:
    """Writes the reason whole (a rename), for the server's /status; the server may have gone
    (and taken its directory), which is no error here."""
    part = f"{path}.{os.getpid()}"
    try:
        with open(part, "w", encoding="utf-8") as f:
            json.dump({"reason": reason}, f, ensure_ascii=False)
        os.replace(part, path)
    except OSError:
        try:
            os.unlink(part)
        except OSError:
            pass


def end_session() -> None:
    """What textual's web driver writes when an app starts and when it ends: textual-serve then
    closes the websocket, and copies stderr (our line) to the server's output once."""
    meta = json.dumps({"type": "exit"}).encode()
    try:
        sys.stdout.flush()
        real = sys.__stdout__
        if real is not None:  # None: Python started without one, and no driver reads it
            os.write(real.fileno(), b"__GANGLION__\n" + b"M" + struct.pack(">I", len(meta)) + meta)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
