"""The terminal front end: questionary prompts (``unsafe_ask``, so Ctrl-C reaches us).

Every typed answer is checked by ``Question.accept``; a refused answer shows its one-line
reason under the prompt and the question stays open. ``<`` goes back one question (alone on
the line at a text, number or dice prompt; the key itself at a list or yes/no prompt), when an
answer the player gave comes before (``going_back``: the answers the rewind port above keeps,
``frontends.rewind.Answered``). Ctrl-D ends the attack as Ctrl-C does.
A default taken with Enter is shown in the answered line, so the scrollback is a faithful
record. Imported only when a terminal is used.

Typing ahead is safe (issue 27): keys typed before a prompt is drawn never answer it (what
the terminal holds when a new prompt starts is dropped, and the player is told so); a yes/no
question takes one key in every language (``y``/``n``, ``д``/``н``), and no other key; after
a refused answer, Enter alone does not take the default (the player answers it again).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

import questionary
from prompt_toolkit.application import create_app_session
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.keys import Keys

from referee.catalog import render, t
from referee.core.dice import ROLL, DiceRoll, KeyedDice
from referee.core.errors import AnswerError
from referee.core.port import BACK_KEY, GoBack, settle_dice
from referee.core.questions import (
    ChoiceQuestion,
    ConfirmQuestion,
    DiceQuestion,
    LineQuestion,
    MultiChoiceQuestion,
    Question,
    TextQuestion,
)
from referee.core.text import Msg, visible
from referee.render.display import dice_text, hint, labels, typed_text

_BACK: Any = object()  # what a list or yes/no prompt returns when ``<`` is pressed


class GoingBack(Protocol):
    """What the prompts read of the answers so far (``frontends.rewind.Answered``): whether
    ``<`` can go back, and what Enter takes after going back."""

    def can_go_back(self) -> bool: ...

    def offered(self, question: Question) -> Any: ...


class InteractivePort:
    def __init__(self, dice: KeyedDice, *, say: Callable[[str], None],
                 input: Any = None, output: Any = None,
                 going_back: GoingBack | None = None, keep_typed_ahead: bool = False) -> None:
        self.dice = dice
        self.say = say
        self.input = input
        self.output = output
        # keys typed before a prompt is drawn are dropped (issue 27); ``keep_typed_ahead``:
        # a test's pipe that queues the keys of several prompts at once
        self.keep_typed_ahead = keep_typed_ahead
        self.going_back = going_back  # None: nothing to go back to (a question of its own)
        self._back_hint_shown = False

    def _default(self, question: Question) -> Any:
        """The answer Enter takes: the previous one after going back, else the question's."""
        back = self.going_back
        offered = back.offered(question) if back is not None else None
        return question.default if offered is None else offered

    def _back_hint(self) -> str | None:
        """Once per attack, at the first question where going back is possible."""
        back = self.going_back
        if self._back_hint_shown or back is None or not back.can_go_back():
            return None
        self._back_hint_shown = True
        return t("prompt.back_hint")

    def _prompt(self, question: Question) -> tuple[questionary.Question, bool, str]:
        """The prompt; whether ``<`` is a key of it (list and yes/no prompts); the text Enter
        puts in an empty line at a text prompt (its default, so the answered line shows
        it). A list of one choice (``ChoiceQuestion``) filters as one types."""
        text = visible(render(question.text))  # names from files are data, never controls
        if question.clause:
            text = f"{text} [{question.clause}]"
        back = self._back_hint()
        default = self._default(question)
        if isinstance(question, ChoiceQuestion):
            names = {value: visible(label) for value, label in labels(question).items()}
            choices = [questionary.Choice(title=names[c.value], value=c.value)
                       for c in question.choices]
            instruction = t("prompt.select")
            # typing filters the list (``5`` leaves ``5+``; a word of a label, in any script)
            return questionary.select(text, choices=choices, default=default,
                                      use_search_filter=True, use_jk_keys=False,
                                      instruction=_with(instruction, back)), True, ""
        if isinstance(question, MultiChoiceQuestion):
            names = {value: visible(label) for value, label in labels(question).items()}
            choices = [questionary.Choice(title=names[c.value], value=c.value,
                                          checked=c.value in default)
                       for c in question.choices]

            def check(values: list[str]) -> bool | str:
                try:
                    question.accept(list(values))
                except AnswerError as err:
                    return render(err.msg)
                return True

            return questionary.checkbox(text, choices=choices, validate=check,
                                        instruction=_with(t("prompt.checkbox"), back)), True, ""
        if isinstance(question, ConfirmQuestion):
            # one key in every language: y/n, and the language's own (д/н); nothing else
            how = t("prompt.yes_no_yes" if default else "prompt.yes_no_no")
            return _confirm(f"{text} ({_with(how, back)})", bool(default)), True, ""
        how = _with(hint(question, default), back)
        prompt = f"{text} ({how})" if how else text
        kept = (question.suggestions
                if isinstance(question, (TextQuestion, LineQuestion)) else ())
        if kept:  # the names the game keeps, completed with Tab as one types (issue 27)
            return (questionary.text(prompt, completer=_completer(kept),
                                     complete_while_typing=False),
                    False, typed_text(question, default))
        return questionary.text(prompt), False, typed_text(question, default)

    def _ask_once(self, question: Question, *, take_default: bool = True) -> Any:
        with create_app_session(input=self.input, output=self.output) as session:
            if not self.keep_typed_ahead and _drop_typed_ahead(session.input,
                                                               own=self.input is None):
                self.say(t("prompt.typed_ahead"))
            prompt, keyed, fill = self._prompt(question)
            if not take_default:
                fill = ""
            app = prompt.application
            keys = _keys(back=keyed and self.going_back is not None, fill=fill,
                         search=_search_control(app) if isinstance(question, ChoiceQuestion)
                         else None)
            app.key_bindings = (keys if app.key_bindings is None
                                else merge_key_bindings([app.key_bindings, keys]))
            try:
                return prompt.unsafe_ask()
            except EOFError:
                raise KeyboardInterrupt from None  # Ctrl-D, or the terminal closed

    def ask(self, question: Question) -> Any:
        refused = False
        while True:
            raw = self._ask_once(question, take_default=not refused)
            if raw is _BACK:
                clause = f" [{question.clause}]" if question.clause else ""
                self.say(f"? {render(question.text)}{clause} {BACK_KEY}")
                raise GoBack
            if (isinstance(raw, str) and raw.strip() == BACK_KEY
                    and self.going_back is not None):
                raise GoBack
            if isinstance(question, ChoiceQuestion) or isinstance(raw, bool):
                return raw  # the prompt offered legal values only
            try:
                if (refused and isinstance(raw, str) and not raw.strip()
                        and not isinstance(question, DiceQuestion)):
                    # after a refused answer Enter alone takes no default: it is answered
                    raise AnswerError(Msg.of("answer.error.after_refusal"))
                value = question.accept(list(raw) if isinstance(raw, list) else raw)
            except AnswerError as err:
                # refused: the one-line reason, then the same question again on a clean line
                self.say(render(Msg.of("answer.refused", reason=err.msg)))
                refused = True
                continue
            if isinstance(question, DiceQuestion):
                roll: DiceRoll = settle_dice(question, value, self.dice)
                if value == ROLL:
                    self.say(f"  {dice_text(roll)}")
                return roll
            return value


def _completer(names: tuple[str, ...]) -> Any:
    """Completes what is being typed with the names the game keeps (issue 27), in any case:
    the whole line when it begins a name (``Grey C`` → ``Grey Company``, a name of several
    words), else the word being typed (after a blank or a comma: ``a1 a2 vs d`` → ``d3``).
    Names are data, shown as they are kept (``visible``: never a control character)."""
    from prompt_toolkit.completion import Completer, Completion

    shown = list(dict.fromkeys(visible(n) for n in names if n.strip()))

    class Names(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            before = document.text_before_cursor
            word = re.split(r"[\s,]", before)[-1]
            for typed in dict.fromkeys((before.lstrip(), word)):
                if not typed:
                    continue
                for name in shown:
                    if name.casefold().startswith(typed.casefold()) and name != typed:
                        yield Completion(name, start_position=-len(typed))

    return Names()


def _with(text: str, back: str | None) -> str:
    return " · ".join(p for p in (text, back) if p)


def _drop_typed_ahead(source: Any, *, own: bool) -> bool:
    """Drop the keys typed before this prompt (issue 27): those prompt_toolkit read past the
    last prompt's answer, and, at the terminal itself (``own``), those the terminal holds.
    Whether any were dropped."""
    from prompt_toolkit.input.typeahead import clear_typeahead, get_typeahead

    dropped = bool(get_typeahead(source))
    clear_typeahead(source)
    if own:
        import sys

        stdin = sys.stdin
        try:
            if stdin is not None and stdin.isatty():
                import fcntl
                import struct
                import termios

                fd = stdin.fileno()
                waiting = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
                termios.tcflush(fd, termios.TCIFLUSH)
                dropped = dropped or waiting > 0
        except (OSError, ValueError, ImportError):  # no terminal control here (Windows)
            pass
    return dropped


def _confirm(text: str, default: bool) -> questionary.Question:
    """A yes/no prompt answered by one key in every language (``prompt.yes_keys``,
    ``prompt.no_keys``: y/n and the language's own letters) or Enter (the default); any other
    key is ignored, so that typed-ahead text answers nothing. The answered line shows the
    answer in the player's language."""
    from prompt_toolkit.formatted_text import to_formatted_text
    from prompt_toolkit.shortcuts import PromptSession
    from questionary.styles import merge_styles_default

    status: dict[str, Any] = {"answer": None}
    yes, no = t("word.yes"), t("word.no")

    def tokens() -> Any:
        out: list[Any] = [("class:qmark", "?"), ("class:question", f" {text} ")]
        if status["answer"] is not None:
            out.append(("class:answer", yes if status["answer"] else no))
        return to_formatted_text(out)

    def answered(event: Any, answer: bool) -> None:
        status["answer"] = answer
        event.app.exit(result=answer)

    keys = KeyBindings()
    for key in t("prompt.yes_keys"):
        keys.add(key)(lambda event: answered(event, True))
    for key in t("prompt.no_keys"):
        keys.add(key)(lambda event: answered(event, False))

    @keys.add(Keys.ControlC, eager=True)
    def _interrupt(event: Any) -> None:
        event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    @keys.add(Keys.ControlM, eager=True)
    def _enter(event: Any) -> None:
        answered(event, default)

    @keys.add(Keys.Any)
    def _other(event: Any) -> None:
        """Any other key answers nothing."""

    return questionary.Question(PromptSession(tokens, key_bindings=keys,
                                              style=merge_styles_default([None])).app)


def _search_control(app: Any) -> Any:
    """The list of the select prompt ``app``, which filters as one types."""
    from questionary.prompts.common import InquirerControl

    return next(c for c in app.layout.find_all_controls() if isinstance(c, InquirerControl))


def _keys(*, back: bool, fill: str, search: Any = None) -> KeyBindings:
    """Ctrl-D ends any prompt as Ctrl-C does; ``<`` goes back at a list or yes/no prompt
    (the prompt is erased: the caller writes the line as it was answered); Enter on an empty
    text line takes ``fill``, written into the line so that the answer stays on screen;
    letters beyond ASCII (a Russian label) filter a list as questionary's own keys do."""
    keys = KeyBindings()

    if search is not None:
        @keys.add(Keys.Any)
        def _letter(event: Any) -> None:
            if event.data.isprintable() and not event.data.isascii():
                search.add_search_character(event.data)

    @keys.add("c-d", eager=True)
    def _eof(event: Any) -> None:
        event.app.exit(exception=EOFError, style="class:aborting")

    if fill:
        @keys.add("enter", eager=True)
        def _enter(event: Any) -> None:
            buffer = event.app.current_buffer
            if not buffer.text.strip():
                buffer.text = fill
            buffer.validate_and_handle()

    if back:
        @keys.add(BACK_KEY, eager=True)
        def _back(event: Any) -> None:
            event.app.erase_when_done = True
            event.app.exit(result=_BACK)

    return keys
