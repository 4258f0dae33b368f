"""The words the referee reads as yes and no (answers to yes/no questions, option values).

English and Russian, since the rules excerpts are Russian translations (see issue 9)."""

YES_WORDS = frozenset({"y", "yes", "true", "on", "1", "да", "д"})
NO_WORDS = frozenset({"n", "no", "false", "off", "0", "нет", "н"})
