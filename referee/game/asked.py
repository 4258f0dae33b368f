"""A question put to a side's phone (``game serve``): as the terminal writes it into the game file
(``question_json``: its id, kind, text, choices, default and dice, every text a message so
that each phone reads it in its own language) and as the seat page shows it (``view``)."""

from __future__ import annotations

from typing import Any

from referee.core.text import Msg, jsonable


def question_json(question: Any, *, can_back: bool, default: Any = None) -> dict[str, Any]:
    """A question of the referee's (``core.questions``) as the game file keeps it for the
    phone: what the page needs to ask it, nothing to check the answer with (the terminal
    checks it, with the question's own ``accept``)."""
    from referee.core.questions import (
        ChoiceQuestion,
        ConfirmQuestion,
        DiceQuestion,
        MultiChoiceQuestion,
        NumberQuestion,
    )
    from referee.render.display import typed_text

    offered = question.default if default is None else default
    out: dict[str, Any] = {"id": question.id, "kind": question.kind,
                           "text": jsonable(question.text), "clause": question.clause,
                           "can_back": can_back, "default": None, "choices": [],
                           "hint": None}
    if isinstance(question, (ChoiceQuestion, MultiChoiceQuestion)):
        out["choices"] = [{"value": c.value, "label": jsonable(c.label)}
                          for c in question.choices]
        if isinstance(question, MultiChoiceQuestion):
            out["min"], out["max"] = question.min_count, question.max_count
            out["default"] = list(offered or ())
        else:
            out["default"] = offered
    elif isinstance(question, ConfirmQuestion):
        out["default"] = bool(offered)
    elif isinstance(question, DiceQuestion):
        out["dice"] = {"count": question.spec.count, "sides": question.spec.sides}
        out["hint"] = jsonable(question.hint_msg) if question.hint_msg else None
    else:
        out["default"] = typed_text(question, offered) if offered is not None else ""
        found = getattr(question, "hint_msg", None)
        if isinstance(found, Msg):
            out["hint"] = jsonable(found)
        elif isinstance(question, NumberQuestion) and question.minimum is not None \
                and question.maximum is not None:
            out["hint"] = f"{question.minimum}–{question.maximum}"
    return out


def view(pending: Any) -> dict[str, Any]:
    """The question as the seat page shows it, in the language being drawn."""
    from referee.catalog import render
    from referee.game.history import message

    q = pending.question

    def text(value: Any) -> str:
        shown = message(value)
        return render(shown) if isinstance(shown, Msg) else ("" if shown is None else str(shown))

    if pending.done or pending.by == "terminal":
        state = "there" if pending.by == "terminal" else "here" if pending.by else "closed"
    elif pending.by == "phone":
        state = "checking"
    else:
        state = "open"
    return {"id": pending.id, "kind": q.get("kind"), "text": text(q.get("text")),
            "clause": q.get("clause") or "", "can_back": bool(q.get("can_back")),
            "default": q.get("default"), "hint": text(q.get("hint")) if q.get("hint") else "",
            "choices": [{"value": str(c.get("value")), "label": text(c.get("label"))}
                        for c in q.get("choices", []) if isinstance(c, dict)],
            "dice": q.get("dice"), "state": state,
            "error": text(pending.error) if pending.error else "",
            "answer": pending.answer or ""}
