"""A game played in one language is verified in another (issue 27's default names): the
names the referee made for what the player left unnamed are that language's words, so each
entry keeps the language it was played in and ``game verify`` resolves it again in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.game import invoke, new_game

# a Combat Commander attack typed in Russian, its pieces unnamed ("Подразделение 1 (Германия)")
CC_RU = ["германия", "сша", "5 6 3", "3 8 3", "-", "укрытие 1", "7", "6", "-", "Grey", "",
         "4 5", "4 5", "4 5"]  # the Fate cards typed


@pytest.mark.parametrize("verifying", ["en", "ru"])
def test_a_game_typed_in_russian_verifies_in_any_language(tmp_path: Path,
                                                          verifying: str) -> None:
    game = tmp_path / "g.sqlite"
    new_game(game)
    code, out, err = invoke(["attack", "cc", "--game", str(game), "--no-odds"],
                            answers=CC_RU, lang="ru")
    assert code == 0, err
    assert "Подразделение 1 (США)" in out
    assert invoke(["game", "reveal", str(game)])[0] == 0
    code, out, err = invoke(["game", "verify", str(game)], lang=verifying)
    assert code == 0, err
    assert "(1 entry)" in out or "(1 запись)" in out


@pytest.mark.parametrize("played", ["0.1.9", None, "this"])
def test_an_entry_another_version_played_is_said_to_need_that_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, played: str | None) -> None:
    """Each entry keeps the version that played it; when an entry does not replay under
    another version (its questions or rules changed), verify says which version to use,
    instead of only that the outcome differs. The same version: the plain reason."""
    from referee import __version__
    from referee.core.errors import GameFileError
    from referee.core.text import Msg
    from referee.play import replay, verify

    game = tmp_path / "g.sqlite"
    new_game(game)
    assert invoke(["attack", "cc", "--game", str(game), "--no-odds"], answers=CC_RU,
                  lang="ru")[0] == 0
    assert invoke(["game", "reveal", str(game)])[0] == 0
    from referee.game.history import read_history

    entry = read_history(game)[0].entries[0]
    assert entry.replay is not None and entry.replay["version"] == __version__

    def changed(entry: object, dice: object) -> object:  # the questions of another version
        raise GameFileError(Msg.of("game.error.outcome_differs", file="x", number=1))

    monkeypatch.setattr(replay, "replay", changed)
    monkeypatch.setattr(verify, "_version_of",
                        lambda e: __version__ if played == "this" else played)
    code, _out, err = invoke(["game", "verify", str(game)])
    assert code == 5
    if played is None:
        assert "was played with a referee older than" in err
    elif played == "this":
        assert "outcome is not what its answers" in err and "played with" not in err
    else:
        assert f"was played with referee {played} and this is {__version__}" in err
