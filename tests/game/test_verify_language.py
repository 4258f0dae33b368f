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
